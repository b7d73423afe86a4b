import { AbortError, ConnectionError, TimeoutError } from "../errors.js";
import type { RateLimiter } from "./rate-limiter.js";
import {
  backoffDelay,
  isIdempotent,
  isRetryableStatus,
  parseRetryAfter,
  type RetryOptions,
} from "./retry.js";
import { sleep } from "./sleep.js";

export interface Logger {
  debug?(message: string): void;
  warn?(message: string): void;
}

export interface TransportOptions {
  fetch: typeof globalThis.fetch;
  retry: RetryOptions;
  /** timeout of one attempt */
  timeoutMs: number;
  /** deadline of the whole call, retries and waits included */
  deadlineMs: number;
  limiter: RateLimiter | undefined;
  logger: Logger | undefined;
  /** a last word on the request's headers (the reseller token), given its URL */
  prepareHeaders?: (url: string, headers: Headers) => void;
  random?: () => number;
}

const attemptsByResponse = new WeakMap<Response, number>();

/** How many attempts produced this response (1 when it was not retried). */
export const attemptsOf = (response: Response): number => attemptsByResponse.get(response) ?? 1;

/** "/cloud/v1/regions?limit=10": what errors and log lines name, never a header. */
const pathOf = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

const TIMED_OUT = Symbol("timed out");

/**
 * A fetch that paces requests through the rate limiter, gives each attempt a timeout, and retries
 * what is safe to retry with backoff or the server's Retry-After. Answers that are not retried
 * (or not any more) are returned as they are, so openapi-fetch's `{ data, error, response }` stays
 * intact; failures without an answer throw ConnectionError, TimeoutError or AbortError.
 */
export function createTransport(options: TransportOptions): typeof globalThis.fetch {
  const { retry, limiter, logger, timeoutMs } = options;
  const maxAttempts = retry.maxRetries + 1;
  return async (input, init) => {
    const original = input instanceof Request && init === undefined ? input : new Request(input, init);
    const { url, method, headers } = original;
    options.prepareHeaders?.(url, headers);
    const callerSignal = original.signal;
    // Buffered once so every attempt can send it again.
    const body = original.body === null ? undefined : await original.arrayBuffer();
    const deadline = Date.now() + options.deadlineMs;
    const fail = <E>(make: (where: { method: string; path: string }) => E): E =>
      make({ method, path: pathOf(url) });
    const aborted = (attempts: number) =>
      fail(
        (w) =>
          new AbortError(`${w.method} ${w.path} was aborted by the caller`, {
            ...w,
            attempts,
            cause: callerSignal.reason,
          }),
      );
    const wait = async (ms: number, attempts: number) => {
      try {
        await sleep(ms, callerSignal);
      } catch {
        throw aborted(attempts);
      }
    };

    for (let attempt = 1; ; attempt++) {
      const slot = limiter?.acquire(callerSignal);
      if (slot) {
        try {
          await slot;
        } catch {
          throw aborted(attempt - 1);
        }
      }
      if (callerSignal.aborted) throw aborted(attempt - 1);
      const attemptTimeout = Math.min(timeoutMs, deadline - Date.now());
      // One controller per attempt, fed by the caller's signal and the attempt's timer
      // (cheaper than AbortSignal.any on every request).
      const controller = new AbortController();
      const onCallerAbort = () => controller.abort(callerSignal.reason);
      callerSignal.addEventListener("abort", onCallerAbort, { once: true });
      const timer = setTimeout(() => controller.abort(TIMED_OUT), Math.max(0, attemptTimeout));
      let response: Response;
      try {
        response = await options.fetch(url, {
          method,
          headers,
          body,
          signal: controller.signal,
          redirect: original.redirect,
          credentials: original.credentials,
        });
      } catch (error) {
        if (callerSignal.aborted) throw aborted(attempt);
        const timedOut = controller.signal.aborted && controller.signal.reason === TIMED_OUT;
        const byDeadline = attemptTimeout < timeoutMs;
        const failure = fail((w) =>
          timedOut
            ? new TimeoutError(
                byDeadline
                  ? `${w.method} ${w.path} reached the call's deadline of ${options.deadlineMs} ms after ${attempt} attempt(s)`
                  : `${w.method} ${w.path} got no answer within ${attemptTimeout} ms`,
                { ...w, attempts: attempt, cause: error },
              )
            : new ConnectionError(
                `${w.method} ${w.path} failed to connect: ${(error as Error)?.message ?? error}`,
                {
                  ...w,
                  attempts: attempt,
                  cause: error,
                },
              ),
        );
        const delay = backoffDelay(attempt, retry, options.random);
        if (attempt >= maxAttempts || !isIdempotent(method) || Date.now() + delay >= deadline) throw failure;
        logger?.warn?.(
          `retrying ${method} ${pathOf(url)} after ${failure.name} in ${delay} ms (attempt ${attempt + 1} of ${maxAttempts})`,
        );
        await wait(delay, attempt);
        continue;
      } finally {
        clearTimeout(timer);
        callerSignal.removeEventListener("abort", onCallerAbort);
      }
      if (attempt > 1) attemptsByResponse.set(response, attempt);
      if (response.ok || attempt >= maxAttempts || !isRetryableStatus(response.status, method))
        return response;
      const advised = parseRetryAfter(response.headers);
      if (advised !== undefined && advised > retry.maxRetryAfterMs) {
        logger?.warn?.(
          `not retrying ${method} ${pathOf(url)}: the server asked to wait ${advised} ms, more than maxRetryAfterMs`,
        );
        return response;
      }
      const delay = advised ?? backoffDelay(attempt, retry, options.random);
      if (response.status === 429) limiter?.pauseFor(delay);
      if (Date.now() + delay >= deadline) return response;
      logger?.warn?.(
        `retrying ${method} ${pathOf(url)} after ${response.status} in ${delay} ms (attempt ${attempt + 1} of ${maxAttempts})`,
      );
      await response.body?.cancel().catch(() => {});
      await wait(delay, attempt);
    }
  };
}
