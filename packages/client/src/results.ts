import { errorForStatus } from "./errors.js";
import { parseRetryAfter } from "./transport/retry.js";
import { attemptsOf } from "./transport/transport.js";

export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; a typed ApiError for any other (what the helpers throw). */
export function requireData<T>(result: FetchResult<T>, method: string, fallbackPath: string): T {
  const { response } = result;
  if (response.ok) return result.data as T;
  // The URL that was really called, when the fetch implementation reports it.
  const path = response.url
    ? `${new URL(response.url).pathname}${new URL(response.url).search}`
    : fallbackPath;
  throw errorForStatus(`${method} ${path} answered ${response.status}`, {
    status: response.status,
    method,
    path,
    body: result.error,
    attempts: attemptsOf(response),
    retryAfterMs: response.status === 429 ? parseRetryAfter(response.headers) : undefined,
  });
}
