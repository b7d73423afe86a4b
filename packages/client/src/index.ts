import { createPlatformClient, type PlatformClientOf } from "./client.js";
import type { paths } from "./generated/openapi.js";
import type { ClientOptions } from "./options.js";

export type { ItemOf, ListPaths, PageOf, PaginateInit, PlatformClientOf, PlatformHelpers } from "./client.js";
export {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  ClientConfigError,
  ConnectionError,
  NotFoundError,
  PaginationError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  ServerError,
  TaskFailedError,
  TaskTimeoutError,
  TimeoutError,
  ValidationError,
} from "./errors.js";
export { DEFAULT_BASE_URL } from "./generated/conventions.js";
export type { components, operations, paths } from "./generated/openapi.js";
export type { ClientOptions } from "./options.js";
export { DEFAULTS } from "./options.js";
export type { PaginateOptions, Paginator } from "./pagination.js";
export { type FinishedTask, recommendedPollIntervalMs, type Task, type WaitForTaskOptions } from "./tasks.js";
export { RateLimiter, type RateLimitOptions } from "./transport/rate-limiter.js";
export type { Logger } from "./transport/transport.js";

/** The typed client of the whole platform API. */
export type PlatformClient = PlatformClientOf<paths>;

/**
 * Creates a typed client of the whole platform API. Raw calls (`client.GET(...)`) answer
 * openapi-fetch's `{ data, error, response }`; the helpers (`paginate`, `waitForTask`,
 * `waitForTasks`) throw typed errors.
 */
export function createClient(options?: ClientOptions): PlatformClient {
  return createPlatformClient<paths>(options);
}
