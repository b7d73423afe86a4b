import type { paths } from "@platform-api/spec/generated/openapi";
import { createPlatformClient } from "./client.js";
import type { PlatformClient } from "./generated/api.js";
import type { ClientOptions } from "./options.js";

export type { components, operations, paths } from "@platform-api/spec/generated/openapi";
export type { PathsOf, PlatformClientOf, PlatformHelpers } from "./client.js";
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
export { type ItemOf, type ListPaths, type PageOf, type PaginateInit, paginate } from "./paginate.js";
export type { PaginateOptions, Paginator } from "./pagination.js";
export type { WithResponse } from "./results.js";
export { type FinishedTask, recommendedPollIntervalMs, type Task, type WaitForTaskOptions } from "./tasks.js";
export { RateLimiter, type RateLimiterSettings, type RateLimitOptions } from "./transport/rate-limiter.js";
export type { Logger } from "./transport/transport.js";
export { type AsyncTaskPaths, type TaskScope, waitForTask, waitForTasks } from "./wait-for-task.js";

/**
 * Creates a typed client of the whole platform API. Raw calls (`client.GET(...)`) answer
 * openapi-fetch's `{ data, error, response }`; the helpers, which take the client
 * (`paginate(client, path)`, `waitForTask(client, taskId)`, `waitForTasks(client, taskIds)`),
 * throw typed errors.
 */
export function createClient(options?: ClientOptions): PlatformClient {
  return createPlatformClient<paths>(options);
}
