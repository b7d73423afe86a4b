// The errors a call through the transport ends with, each naming the call by method and path.
import {
  AbortError,
  ConnectionError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
} from "../errors.js";

/** "/cloud/v1/regions?limit=10": what errors and log lines name, never a header. */
export const pathOf = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

export function abortedError(method: string, url: string, attempts: number, signal: AbortSignal): AbortError {
  const path = pathOf(url);
  return new AbortError(`${method} ${path} was aborted by the caller`, {
    method,
    path,
    attempts,
    cause: signal.reason,
  });
}

export function tooLargeError(
  method: string,
  url: string,
  attempts: number,
  status: number,
  declared: number | undefined,
  limit: number,
): ResponseTooLargeError {
  const path = pathOf(url);
  const size = declared === undefined ? "is larger than" : `declares ${declared} bytes, more than`;
  return new ResponseTooLargeError(
    `${method} ${path}: its ${status} answer ${size} maxResponseBytes (${limit} bytes)`,
    { status, method, path, attempts, limit },
  );
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A redirect answer (browsers give an opaque one, without status or Location, under "manual"). */
export const isRedirect = (response: Response): boolean =>
  response.type === "opaqueredirect" || REDIRECT_STATUSES.has(response.status);

export function redirectError(
  method: string,
  url: string,
  attempts: number,
  response: Response,
): RedirectError {
  const path = pathOf(url);
  const status = response.type === "opaqueredirect" ? undefined : response.status;
  const raw = response.headers.get("location");
  let location: string | undefined;
  if (raw !== null) {
    try {
      location = new URL(raw, url).href;
    } catch {
      location = raw;
    }
  }
  return new RedirectError(
    `${method} ${path} was redirected${status === undefined ? "" : ` (${status})`} to ${
      location ?? "a Location the runtime does not show"
    }; the client does not follow redirects: check baseUrl`,
    { status, method, path, attempts, location },
  );
}

/** How one attempt ended without a whole answer, as the transport saw it. */
export interface AttemptEnd {
  method: string;
  url: string;
  attempt: number;
  /** whether the attempt's own timer fired (not the caller's signal) */
  timedOut: boolean;
  /** the attempt's timeout, shorter than `timeoutMs` when the call's deadline cut it */
  attemptTimeoutMs: number;
  timeoutMs: number;
  deadlineMs: number;
  /** the status of an answer whose headers came but whose body did not; undefined: no answer */
  status: number | undefined;
}

/**
 * The error of an attempt that got no whole answer: TimeoutError when its timer fired, else
 * ConnectionError. An answer whose body did not come whole fails like one that never came.
 */
export function attemptFailure(end: AttemptEnd, error: unknown): TimeoutError | ConnectionError {
  const { method, attempt, status, attemptTimeoutMs } = end;
  const path = pathOf(end.url);
  const where = { method, path, attempts: attempt, cause: error };
  if (end.timedOut)
    return new TimeoutError(
      attemptTimeoutMs < end.timeoutMs
        ? `${method} ${path} reached the call's deadline of ${end.deadlineMs} ms after ${attempt} attempt(s)`
        : status === undefined
          ? `${method} ${path} got no answer within ${attemptTimeoutMs} ms`
          : `${method} ${path}: the body of its ${status} answer did not arrive within ${attemptTimeoutMs} ms`,
      where,
    );
  return new ConnectionError(
    status === undefined
      ? `${method} ${path} failed to connect: ${(error as Error)?.message ?? error}`
      : `${method} ${path} lost the body of its ${status} answer: ${(error as Error)?.message ?? error}`,
    where,
  );
}
