import { type RedirectError, ResponseTooLargeError } from "../errors.js";
import { BufferedResponse, buffered } from "./body.js";
import {
  abortedError,
  attemptFailure,
  isRedirect,
  pathOf,
  redirectError,
  tooLargeError,
} from "./failures.js";
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

export { pathOf } from "./failures.js";

export interface Logger {
  /** At `logLevel: "debug"`: one line per request and one per answer. */
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

const TIMED_OUT = Symbol("timed out");

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

/** One call as the transport sends it: the request's parts, read once for all its attempts. */
interface Call {
  method: string;
  url: string;
  headers: Headers;
  /** buffered once so every attempt can send it again */
  body: ArrayBuffer | undefined;
  credentials: RequestCredentials;
  callerSignal: AbortSignal;
  context: CallContext | undefined;
  /** when the whole call, retries and waits included, is over (a Date.now() time) */
  deadline: number;
}

/** What every stage of a call reads: the options, and the controllers free for a next attempt. */
interface Stages extends TransportOptions {
  maxAttempts: number;
  pool: AbortController[];
  timeouts: AttemptTimeouts;
}

/** One attempt of a call: the controller its timer and the caller's signal abort, and what its answer was. */
interface Attempt {
  number: number;
  controller: AbortController;
  /** its timeout: the configured one, or less when the call's deadline comes first */
  timeoutMs: number;
  /** when it was sent (a Date.now() time), for the debug lines' durations */
  startedAt: number;
  /** the status of its answer, once the headers came */
  status?: number;
  /** the headers of its answer, once they came */
  headers?: Headers;
  /** the wait before the next attempt after its answer; undefined: the answer is the call's */
  delay?: number | undefined;
  /** its answer is handed on at its headers: the caller's signal stays linked to the body */
  streamed?: boolean;
  /** Stops its timer and, unless the answer is a stream the caller still reads, unlinks the caller's signal. */
  end(): void;
}

/** A controller that never fired goes back to the pool; the call no longer holds it. */
function release(pool: AbortController[], controller: AbortController | undefined, context?: CallContext) {
  if (context) context.controller = undefined;
  if (controller && !controller.signal.aborted && pool.length < POOL_SIZE) pool.push(controller);
}

/** The call as every attempt sends it (its headers already have the last word put on them). */
const callOf = (
  original: Request,
  context: CallContext | undefined,
  body: ArrayBuffer | undefined,
  deadlineMs: number,
): Call => ({
  method: original.method,
  url: original.url,
  headers: original.headers,
  body,
  credentials: original.credentials,
  callerSignal: original.signal,
  context,
  deadline: Date.now() + deadlineMs,
});

/** Rate limit stage: waits for the limiter's slot; the caller's signal ends the wait with AbortError. */
async function waitForSlot(slot: Promise<void>, call: Call, attempts: number) {
  try {
    await slot;
  } catch {
    throw abortedError(call.method, call.url, attempts, call.callerSignal);
  }
}

/**
 * Timeout stage: one controller per attempt, fed by the caller's signal (when there is one) and
 * the attempt's timer; cheaper than AbortSignal.any, and reused from the pool when possible.
 */
function startAttempt(number: number, call: Call, stages: Stages): Attempt {
  const timeoutMs = Math.min(stages.timeoutMs, call.deadline - Date.now());
  const controller = stages.pool.pop() ?? new AbortController();
  if (call.context) call.context.controller = controller;
  const { callerSignal } = call;
  const linkCaller = call.context?.callerSignal ?? true;
  const onCallerAbort = () => controller.abort(callerSignal.reason);
  if (linkCaller) callerSignal.addEventListener("abort", onCallerAbort, { once: true });
  const stopTimer = stages.timeouts.start(controller, Math.max(0, timeoutMs), TIMED_OUT);
  const attempt: Attempt = {
    number,
    controller,
    timeoutMs,
    startedAt: Date.now(),
    end() {
      stopTimer();
      if (linkCaller && !attempt.streamed) callerSignal.removeEventListener("abort", onCallerAbort);
    },
  };
  return attempt;
}

/** Send stage: one attempt of the call, under the attempt's signal. */
const send = (fetch: typeof globalThis.fetch, call: Call, signal: AbortSignal): Promise<Response> =>
  fetch(call.url, {
    method: call.method,
    headers: call.headers,
    body: call.body,
    signal,
    // Never followed: see RedirectError.
    redirect: "manual",
    credentials: call.credentials,
  });

/** The answer read whole within its attempt, as a Response over its bytes (size limit included). */
async function readWhole(answer: Response, call: Call, attempt: number, limit: number): Promise<Response> {
  const response = await buffered(answer, limit, (declared) =>
    tooLargeError(call.method, call.url, attempt, answer, declared, limit),
  );
  if (call.context && response instanceof BufferedResponse) call.context.response = response;
  return response;
}

/**
 * Sends the attempt and classifies its answer (noted on `attempt`): a redirect, one to retry after
 * `attempt.delay`, a stream handed on at its headers, or one read whole.
 */
async function answerOf(call: Call, attempt: Attempt, stages: Stages): Promise<Response> {
  const response = await send(stages.fetch, call, attempt.controller.signal);
  attempt.status = response.status;
  attempt.headers = response.headers;
  if (isRedirect(response)) return response;
  attempt.delay = retryDelay(response, call, attempt.number, stages);
  if (attempt.delay !== undefined) return response;
  if (!call.context?.stream) return readWhole(response, call, attempt.number, stages.maxResponseBytes);
  attempt.streamed = true;
  return response;
}

/** Retry decision for an answer: the wait before retrying after it, or undefined when it is the call's answer. */
function retryDelay(response: Response, call: Call, attempt: number, options: Stages): number | undefined {
  const { maxAttempts } = options;
  const { method, url } = call;
  if (response.ok || attempt >= maxAttempts || !isRetryableStatus(response.status, method)) return undefined;
  const advised = parseRetryAfter(response.headers);
  if (advised !== undefined && advised > options.retry.maxRetryAfterMs) {
    options.logger?.warn?.(
      `not retrying ${method} ${pathOf(url)}: the server asked to wait ${advised} ms, more than maxRetryAfterMs`,
    );
    return undefined;
  }
  const delay = advised ?? backoffDelay(attempt, options.retry, options.random);
  if (response.status === 429) options.limiter?.pauseFor(delay);
  return Date.now() + delay >= call.deadline ? undefined : delay;
}

/** The error of an attempt without a whole answer: too large, aborted by the caller, or its failure. */
function failureOf(error: unknown, call: Call, attempt: Attempt, options: Stages): Error {
  if (error instanceof ResponseTooLargeError) return error;
  if (call.callerSignal.aborted)
    return abortedError(call.method, call.url, attempt.number, call.callerSignal);
  const { signal } = attempt.controller;
  return attemptFailure(error, call, attempt, signal.aborted && signal.reason === TIMED_OUT, options);
}

/** The debug line of an attempt's request: method, URL (the client redacts the keys from it), attempt. */
const logRequest = (logger: Logger, call: Call, attempt: Attempt, stages: Stages) =>
  logger.debug?.(`request ${call.method} ${call.url} (attempt ${attempt.number} of ${stages.maxAttempts})`);

/** The debug line of an attempt's answer (`what`: its status, or none and why), with its duration. */
const logAnswer = (logger: Logger, call: Call, attempt: Attempt, stages: Stages, what: string | number) =>
  logger.debug?.(
    `answer ${call.method} ${call.url}: ${what} in ${Date.now() - attempt.startedAt} ms (attempt ${attempt.number} of ${stages.maxAttempts})`,
  );

/**
 * Error and retry stage after an attempt without a whole answer: throws the call's error, or waits
 * before the next attempt when the method may be sent again within the attempts and the deadline.
 */
async function retryAfterFailure(
  error: unknown,
  call: Call,
  attempt: Attempt,
  options: Stages,
): Promise<void> {
  const { method, url, callerSignal } = call;
  const failure = failureOf(error, call, attempt, options);
  if (options.logger?.debug) logAnswer(options.logger, call, attempt, options, `none (${failure.name})`);
  if (failure instanceof ResponseTooLargeError || callerSignal.aborted) throw failure;
  const { maxAttempts } = options;
  const backoff = backoffDelay(attempt.number, options.retry, options.random);
  if (attempt.number >= maxAttempts || !isIdempotent(method) || Date.now() + backoff >= call.deadline)
    throw failure;
  options.logger?.warn?.(
    `retrying ${method} ${pathOf(url)} after ${failure.name} in ${backoff} ms (attempt ${attempt.number + 1} of ${maxAttempts})`,
  );
  await waitBetweenAttempts(backoff, method, url, attempt.number, callerSignal);
}

/** A redirect answer's error, once its body is let go. */
async function redirected(response: Response, call: Call, attempt: Attempt): Promise<RedirectError> {
  await response.body?.cancel().catch(() => {});
  return redirectError(call.method, call.url, attempt.number, response);
}

/** Retry stage after an answer to retry: lets its body go and waits `delay` (the attempt's). */
async function retryAfterAnswer(
  response: Response,
  delay: number,
  call: Call,
  attempt: Attempt,
  stages: Stages,
): Promise<void> {
  const { method, url } = call;
  stages.logger?.warn?.(
    `retrying ${method} ${pathOf(url)} after ${response.status} in ${delay} ms (attempt ${attempt.number + 1} of ${stages.maxAttempts})`,
  );
  await response.body?.cancel().catch(() => {});
  await waitBetweenAttempts(delay, method, url, attempt.number, call.callerSignal);
}

/**
 * A fetch that paces requests through the rate limiter, gives each attempt a timeout, and retries
 * what is safe to retry with backoff or the server's Retry-After. The answer that is not retried
 * (or not any more) is read whole within its attempt (timeout, deadline, caller's signal, size
 * limit) and returned as a Response over those bytes, with its status and headers, so
 * openapi-fetch's `{ data, error, response }` stays intact; failures without a whole answer throw
 * ConnectionError, TimeoutError, AbortError or ResponseTooLargeError.
 */
export function createTransport(options: TransportOptions): Transport {
  const stages: Stages = {
    ...options,
    maxAttempts: options.retry.maxRetries + 1,
    pool: [],
    timeouts: new AttemptTimeouts(options.timeoutMs),
  };
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const original = input instanceof Request && init === undefined ? input : new Request(input, init);
    const context = (original as unknown as Record<string, CallContext | undefined>)[CALL_CONTEXT];
    options.prepareHeaders?.(original.method, original.url, original.headers, context);
    // Buffered once so every attempt can send it again.
    const body = original.body === null ? undefined : await original.arrayBuffer();
    const call = callOf(original, context, body, options.deadlineMs);
    for (let number = 1; ; number++) {
      const slot = options.limiter?.acquire(call.callerSignal);
      if (slot) await waitForSlot(slot, call, number - 1);
      if (call.callerSignal.aborted) throw abortedError(call.method, call.url, number - 1, call.callerSignal);
      const attempt = startAttempt(number, call, stages);
      // Only a client at logLevel "debug" has a debug function: no line is built otherwise.
      const debug = stages.logger?.debug ? stages.logger : undefined;
      if (debug) logRequest(debug, call, attempt, stages);
      let answer: Response;
      try {
        answer = await answerOf(call, attempt, stages);
        if (debug) logAnswer(debug, call, attempt, stages, answer.status);
      } catch (error) {
        await retryAfterFailure(error, call, attempt, stages);
        continue;
      } finally {
        attempt.end();
      }
      if (isRedirect(answer)) throw await redirected(answer, call, attempt);
      if (attempt.number > 1) attemptsByResponse.set(answer, attempt.number);
      if (attempt.delay === undefined) {
        // Read whole: the controller is free again (a stream's stays with its body).
        if (!attempt.streamed) release(stages.pool, attempt.controller, call.context);
        return answer;
      }
      await retryAfterAnswer(answer, attempt.delay, call, attempt, stages);
    }
  };
  return { fetch, releaseCall: (context) => release(stages.pool, context.controller, context) };
}
