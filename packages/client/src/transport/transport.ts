import {
  AbortError,
  ConnectionError,
  RedirectError,
  ResponseTooLargeError,
  TimeoutError,
} from "../errors.js";
import { BufferedResponse, buffered } from "./body.js";
import type { RateLimiter } from "./rate-limiter.js";
import {
  backoffDelay,
  isIdempotent,
  isRetryableStatus,
  parseRetryAfter,
  type RetryOptions,
} from "./retry.js";
import { sleep } from "./sleep.js";
import { AttemptTimeouts } from "./timeouts.js";

export interface Logger {
  /** Accepted for loggers that have it; the client logs nothing at this level. */
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
  /** largest body read (the answers the transport reads whole) */
  maxResponseBytes: number;
  limiter: RateLimiter | undefined;
  logger: Logger | undefined;
  /**
   * A last word on the request's headers (the reseller token), given its method and URL and, when
   * the call came through the client's method wrappers, what they know of it.
   */
  prepareHeaders?: (method: string, url: string, headers: Headers, context: CallContext | undefined) => void;
  random?: () => number;
}

const attemptsByResponse = new WeakMap<Response, number>();

/** How many attempts produced this response (1 when it was not retried). */
export const attemptsOf = (response: Response): number => attemptsByResponse.get(response) ?? 1;

/** "/cloud/v1/regions?limit=10": what errors and log lines name, never a header. */
export const pathOf = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

const TIMED_OUT = Symbol("timed out");

function abortedError(method: string, url: string, attempts: number, signal: AbortSignal): AbortError {
  const path = pathOf(url);
  return new AbortError(`${method} ${path} was aborted by the caller`, {
    method,
    path,
    attempts,
    cause: signal.reason,
  });
}

function tooLargeError(
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
const isRedirect = (response: Response): boolean =>
  response.type === "opaqueredirect" || REDIRECT_STATUSES.has(response.status);

function redirectError(method: string, url: string, attempts: number, response: Response): RedirectError {
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

/** Waits between attempts; the caller's signal ends the wait with AbortError. */
async function waitBetweenAttempts(
  ms: number,
  method: string,
  url: string,
  attempts: number,
  signal: AbortSignal,
) {
  try {
    await sleep(ms, signal);
  } catch {
    throw abortedError(method, url, attempts, signal);
  }
}

/**
 * What the client's method wrappers tell the transport about one call. It travels as a property
 * of the init object, which openapi-fetch copies onto the Request it builds; when it is missing
 * (another caller, or a future openapi-fetch that stops copying), the transport takes the safe path.
 */
export const CALL_CONTEXT = "__platformApiCall";
export interface CallContext {
  /** whether the caller passed an AbortSignal (else there is nothing to link) */
  callerSignal: boolean;
  /** the controller of the call's last attempt, for reuse once the call is over */
  controller?: AbortController;
  /** whether the spec's operation admits the reseller token (undefined: not a described operation) */
  reseller?: boolean;
  /**
   * whether the caller reads the body as a stream (`parseAs: "stream"`): the transport then hands
   * the answer on at its headers, unread, with the caller's signal still linked to it
   */
  stream?: boolean;
  /** the call's answer, read whole (for the error of a body that turns out not to be JSON) */
  response?: BufferedResponse;
}

export interface Transport {
  fetch: typeof globalThis.fetch;
  /**
   * Called when a call is over and its body has been read: its controller, if it never fired, goes
   * back to a small pool. Creating an AbortSignal is the largest cost of a request in Node 20, and
   * every attempt needs one so that its timeout really cancels it.
   */
  releaseCall(context: CallContext): void;
}

const POOL_SIZE = 64;

/**
 * A fetch that paces requests through the rate limiter, gives each attempt a timeout, and retries
 * what is safe to retry with backoff or the server's Retry-After. The answer that is not retried
 * (or not any more) is read whole within its attempt (timeout, deadline, caller's signal, size
 * limit) and returned as a Response over those bytes, with its status and headers, so
 * openapi-fetch's `{ data, error, response }` stays intact; failures without a whole answer throw
 * ConnectionError, TimeoutError, AbortError or ResponseTooLargeError.
 */
export function createTransport(options: TransportOptions): Transport {
  const { retry, limiter, logger, timeoutMs, maxResponseBytes } = options;
  const maxAttempts = retry.maxRetries + 1;
  const pool: AbortController[] = [];
  const timeouts = new AttemptTimeouts(timeoutMs);
  const release = (controller: AbortController | undefined, context: CallContext | undefined) => {
    if (context) context.controller = undefined;
    if (controller && !controller.signal.aborted && pool.length < POOL_SIZE) pool.push(controller);
  };
  const releaseCall = (context: CallContext) => release(context.controller, context);
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const original = input instanceof Request && init === undefined ? input : new Request(input, init);
    const context = (original as unknown as Record<string, CallContext | undefined>)[CALL_CONTEXT];
    const { url, method, headers } = original;
    options.prepareHeaders?.(method, url, headers, context);
    const callerSignal = original.signal;
    // Buffered once so every attempt can send it again.
    const body = original.body === null ? undefined : await original.arrayBuffer();
    const deadline = Date.now() + options.deadlineMs;
    for (let attempt = 1; ; attempt++) {
      const slot = limiter?.acquire(callerSignal);
      if (slot) {
        try {
          await slot;
        } catch {
          throw abortedError(method, url, attempt - 1, callerSignal);
        }
      }
      if (callerSignal.aborted) throw abortedError(method, url, attempt - 1, callerSignal);
      const attemptTimeout = Math.min(timeoutMs, deadline - Date.now());
      // One controller per attempt, fed by the caller's signal (when there is one) and the
      // attempt's timer; cheaper than AbortSignal.any, and reused from the pool when possible.
      const controller = pool.pop() ?? new AbortController();
      if (context) context.controller = controller;
      const linkCaller = context?.callerSignal ?? true;
      const onCallerAbort = () => controller.abort(callerSignal.reason);
      if (linkCaller) callerSignal.addEventListener("abort", onCallerAbort, { once: true });
      const stopTimer = timeouts.start(controller, Math.max(0, attemptTimeout), TIMED_OUT);
      let response: Response | undefined;
      // The wait before the next attempt; undefined: this answer is the call's.
      let delay: number | undefined;
      // A streamed answer is handed on at its headers; the caller's signal stays linked to its body.
      let streamed = false;
      try {
        response = await options.fetch(url, {
          method,
          headers,
          body,
          signal: controller.signal,
          // Never followed: see RedirectError.
          redirect: "manual",
          credentials: original.credentials,
        });
        if (!isRedirect(response)) {
          delay = retryDelay(response, method, url, attempt, deadline);
          if (delay === undefined && context?.stream) streamed = true;
          else if (delay === undefined) {
            const answer = response;
            response = await buffered(answer, maxResponseBytes, (declared) =>
              tooLargeError(method, url, attempt, answer.status, declared, maxResponseBytes),
            );
            if (context && response instanceof BufferedResponse) context.response = response;
          }
        }
      } catch (error) {
        if (error instanceof ResponseTooLargeError) throw error;
        if (callerSignal.aborted) throw abortedError(method, url, attempt, callerSignal);
        const timedOut = controller.signal.aborted && controller.signal.reason === TIMED_OUT;
        const byDeadline = attemptTimeout < timeoutMs;
        const path = pathOf(url);
        const where = { method, path, attempts: attempt, cause: error };
        // An answer whose body did not come whole fails like one that never came: the request
        // may be sent again when its method allows.
        const status = response?.status;
        const failure = timedOut
          ? new TimeoutError(
              byDeadline
                ? `${method} ${path} reached the call's deadline of ${options.deadlineMs} ms after ${attempt} attempt(s)`
                : status === undefined
                  ? `${method} ${path} got no answer within ${attemptTimeout} ms`
                  : `${method} ${path}: the body of its ${status} answer did not arrive within ${attemptTimeout} ms`,
              where,
            )
          : new ConnectionError(
              status === undefined
                ? `${method} ${path} failed to connect: ${(error as Error)?.message ?? error}`
                : `${method} ${path} lost the body of its ${status} answer: ${(error as Error)?.message ?? error}`,
              where,
            );
        const backoff = backoffDelay(attempt, retry, options.random);
        if (attempt >= maxAttempts || !isIdempotent(method) || Date.now() + backoff >= deadline)
          throw failure;
        logger?.warn?.(
          `retrying ${method} ${pathOf(url)} after ${failure.name} in ${backoff} ms (attempt ${attempt + 1} of ${maxAttempts})`,
        );
        await waitBetweenAttempts(backoff, method, url, attempt, callerSignal);
        continue;
      } finally {
        stopTimer();
        if (linkCaller && !streamed) callerSignal.removeEventListener("abort", onCallerAbort);
      }
      if (isRedirect(response)) {
        await response.body?.cancel().catch(() => {});
        throw redirectError(method, url, attempt, response);
      }
      if (attempt > 1) attemptsByResponse.set(response, attempt);
      if (delay === undefined) {
        // Read whole: the controller is free again (a stream's stays with its body).
        if (!streamed) release(controller, context);
        return response;
      }
      logger?.warn?.(
        `retrying ${method} ${pathOf(url)} after ${response.status} in ${delay} ms (attempt ${attempt + 1} of ${maxAttempts})`,
      );
      await response.body?.cancel().catch(() => {});
      await waitBetweenAttempts(delay, method, url, attempt, callerSignal);
    }
  };
  /** The wait before retrying after this answer, or undefined when it is the call's answer. */
  const retryDelay = (
    response: Response,
    method: string,
    url: string,
    attempt: number,
    deadline: number,
  ): number | undefined => {
    if (response.ok || attempt >= maxAttempts || !isRetryableStatus(response.status, method))
      return undefined;
    const advised = parseRetryAfter(response.headers);
    if (advised !== undefined && advised > retry.maxRetryAfterMs) {
      logger?.warn?.(
        `not retrying ${method} ${pathOf(url)}: the server asked to wait ${advised} ms, more than maxRetryAfterMs`,
      );
      return undefined;
    }
    const delay = advised ?? backoffDelay(attempt, retry, options.random);
    if (response.status === 429) limiter?.pauseFor(delay);
    return Date.now() + delay >= deadline ? undefined : delay;
  };
  return { fetch, releaseCall };
}
