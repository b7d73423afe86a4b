export interface RetryOptions {
  /** retries after the first attempt */
  maxRetries: number;
  /** first backoff delay */
  initialDelayMs: number;
  /** largest backoff delay */
  maxDelayMs: number;
  /** a Retry-After longer than this is not waited for: the answer is returned as it is */
  maxRetryAfterMs: number;
}

const IDEMPOTENT = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);
/** 5xx answers that mean "try again"; 500 is the platform's documented one. */
const TRANSIENT_5XX = new Set([500, 502, 503, 504]);

export const isIdempotent = (method: string): boolean => IDEMPOTENT.has(method.toUpperCase());

/**
 * Whether an answer with `status` may be retried for `method`: 429 always (the request was not
 * processed); transient 5xx only for idempotent methods, because a cloud POST creates resources.
 */
export function isRetryableStatus(status: number, method: string): boolean {
  return status === 429 || (TRANSIENT_5XX.has(status) && isIdempotent(method));
}

/** The server's advised wait, from `retry-after-ms`, or `Retry-After` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const value = headers.get("retry-after");
  if (value === null) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with up to 25% jitter below the exponential value. */
export function backoffDelay(
  retry: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(options.maxDelayMs, options.initialDelayMs * 2 ** (retry - 1));
  return Math.round(exponential * (1 - 0.25 * random()));
}
