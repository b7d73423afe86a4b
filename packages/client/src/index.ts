import type { paths } from "@platform-api/spec/generated/openapi";
import { createPlatformClient } from "./client.js";
import type { PlatformClient } from "./generated/api.js";
import type { ClientOptions } from "./options.js";

export type { components, operations, paths } from "@platform-api/spec/generated/openapi";
export type {
  AsyncTaskPaths,
  ItemOf,
  ListHelpers,
  ListPaths,
  PageOf,
  PaginateInit,
  PlatformClientOf,
  PlatformHelpers,
  TaskHelpers,
  TaskHelpersOf,
} from "./client.js";
export {
  AbortError,
  ApiError,
  AuthenticationError,
  BadRequestError,
  BODY_EXCERPT_CHARS,
  ClientConfigError,
  ConnectionError,
  InvalidResponseError,
  NotFoundError,
  PaginationError,
  PermissionDeniedError,
  RateLimitError,
  RedirectError,
  ResponseTooLargeError,
  ServerError,
  TaskFailedError,
  TaskTimeoutError,
  TimeoutError,
  ValidationError,
} from "./errors.js";
export type { PlatformClient } from "./generated/api.js";
export type { ClientOptions } from "./options.js";
export { DEFAULT_BASE_URL, DEFAULTS } from "./options.js";
export type { PaginateOptions, Paginator } from "./pagination.js";
export type { WithResponse } from "./results.js";
export { type FinishedTask, recommendedPollIntervalMs, type Task, type WaitForTaskOptions } from "./tasks.js";
export { RateLimiter, type RateLimiterSettings, type RateLimitOptions } from "./transport/rate-limiter.js";
export type { Logger } from "./transport/transport.js";

/**
 * Creates a typed client of the whole platform API. Raw calls (`client.GET(...)`) answer
 * openapi-fetch's `{ data, error, response }`; the helpers (`paginate`, `waitForTask`,
 * `waitForTasks`) throw typed errors.
 */
export function createClient(options?: ClientOptions): PlatformClient {
  return createPlatformClient<paths>(options);
}
