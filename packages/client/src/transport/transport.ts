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
  random?: () => number;
}

const attemptsByResponse = new WeakMap<Response, number>();

/** How many attempts produced this response (1 when it was not retried). */
export const attemptsOf = (response: Response): number => attemptsByResponse.get(response) ?? 1;

/** "GET /cloud/v1/regions?limit=10": what errors and log lines name, never a header. */
export const describeRequest = (request: Request): { method: string; path: string } => {
  const url = new URL(request.url);
  return { method: request.method, path: `${url.pathname}${url.search}` };
};

/**
 * A fetch that paces requests through the rate limiter, gives each attempt a timeout, and retries
 * what is safe to retry with backoff or the server's Retry-After. Answers that are not retried
 * (or not any more) are returned as they are, so openapi-fetch's `{ data, error, response }` stays
 * intact; failures without an answer throw ConnectionError, TimeoutError or AbortError.
 */
export function createTransport(options: TransportOptions): typeof globalThis.fetch {
  const { retry, limiter, logger } = options;
  return async (input, init) => {
    const original = input instanceof Request && init === undefined ? input : new Request(input, init);
    const { method, path } = describeRequest(original);
    const callerSignal = original.signal;
    // Buffered once so every attempt can send it again.
    const body = original.body === null ? undefined : await original.arrayBuffer();
    const deadline = Date.now() + options.deadlineMs;
    const maxAttempts = retry.maxRetries + 1;
    const aborted = (attempts: number) =>
      new AbortError(`${method} ${path} was aborted by the caller`, {
        method,
        path,
        attempts,
        cause: callerSignal.reason,
      });

    for (let attempt = 1; ; attempt++) {
      try {
        await limiter?.acquire(callerSignal);
      } catch {
        throw aborted(attempt - 1);
      }
      const remaining = deadline - Date.now();
      const attemptTimeout = Math.min(options.timeoutMs, remaining);
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), Math.max(0, attemptTimeout));
      const signal = AbortSignal.any([callerSignal, timeout.signal]);
      let response: Response;
      try {
        response = await options.fetch(new Request(original, { body, signal }));
      } catch (error) {
        clearTimeout(timer);
        if (callerSignal.aborted) throw aborted(attempt);
        const timedOut = timeout.signal.aborted;
        const byDeadline = attemptTimeout < options.timeoutMs;
        const failure = timedOut
          ? new TimeoutError(
              byDeadline
                ? `${method} ${path} reached the call's deadline of ${options.deadlineMs} ms after ${attempt} attempt(s)`
                : `${method} ${path} got no answer within ${attemptTimeout} ms`,
              { method, path, attempts: attempt, cause: error },
            )
          : new ConnectionError(
              `${method} ${path} failed to connect: ${(error as Error)?.message ?? error}`,
              {
                method,
                path,
                attempts: attempt,
                cause: error,
              },
            );
        const wait = backoffDelay(attempt, retry, options.random);
        if (attempt >= maxAttempts || !isIdempotent(method) || Date.now() + wait >= deadline) throw failure;
        logger?.warn?.(
          `retrying ${method} ${path} after ${failure.name} in ${wait} ms (attempt ${attempt + 1} of ${maxAttempts})`,
        );
        try {
          await sleep(wait, callerSignal);
        } catch {
          throw aborted(attempt);
        }
        continue;
      }
      clearTimeout(timer);
      attemptsByResponse.set(response, attempt);
      if (!isRetryableStatus(response.status, method) || attempt >= maxAttempts) return response;
      const advised = parseRetryAfter(response.headers);
      if (advised !== undefined && advised > retry.maxRetryAfterMs) {
        logger?.warn?.(
          `not retrying ${method} ${path}: the server asked to wait ${advised} ms, more than maxRetryAfterMs`,
        );
        return response;
      }
      const wait = advised ?? backoffDelay(attempt, retry, options.random);
      if (response.status === 429) limiter?.pauseFor(wait);
      if (Date.now() + wait >= deadline) return response;
      logger?.warn?.(
        `retrying ${method} ${path} after ${response.status} in ${wait} ms (attempt ${attempt + 1} of ${maxAttempts})`,
      );
      await response.body?.cancel().catch(() => {});
      try {
        await sleep(wait, callerSignal);
      } catch {
        throw aborted(attempt);
      }
    }
  };
}
