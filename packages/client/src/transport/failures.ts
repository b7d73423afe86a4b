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
  answer: Response,
  declared: number | undefined,
  limit: number,
): ResponseTooLargeError {
  const { status, headers } = answer;
  const path = pathOf(url);
  const size = declared === undefined ? "is larger than" : `declares ${declared} bytes, more than`;
  return new ResponseTooLargeError(
    `${method} ${path}: its ${status} answer ${size} maxResponseBytes (${limit} bytes)`,
    { status, method, path, attempts, limit, headers },
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
    { status, method, path, attempts, location, headers: response.headers },
  );
}

/**
 * The error of an attempt that got no whole answer: TimeoutError when its own timer fired
 * (`timedOut`), else ConnectionError. An answer whose body did not come whole fails like one that
 * never came; `attempt.status` is that answer's status, undefined when no answer came.
 */
export function attemptFailure(
  error: unknown,
  call: { method: string; url: string },
  attempt: { number: number; timeoutMs: number; status?: number | undefined; headers?: Headers | undefined },
  timedOut: boolean,
  limits: { timeoutMs: number; deadlineMs: number },
): TimeoutError | ConnectionError {
  const { method } = call;
  const { number, status, timeoutMs, headers } = attempt;
  const path = pathOf(call.url);
  const where = { method, path, attempts: number, cause: error, headers };
  if (timedOut)
    return new TimeoutError(
      // A timeout shorter than the configured one: the call's deadline cut the attempt.
      timeoutMs < limits.timeoutMs
        ? `${method} ${path} reached the call's deadline of ${limits.deadlineMs} ms after ${number} attempt(s)`
        : status === undefined
          ? `${method} ${path} got no answer within ${timeoutMs} ms`
          : `${method} ${path}: the body of its ${status} answer did not arrive within ${timeoutMs} ms`,
      where,
    );
  return new ConnectionError(
    status === undefined
      ? `${method} ${path} failed to connect: ${(error as Error)?.message ?? error}`
      : `${method} ${path} lost the body of its ${status} answer: ${(error as Error)?.message ?? error}`,
    where,
  );
}
