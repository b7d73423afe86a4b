import { sleep } from "./sleep.js";

export interface RateLimitOptions {
  /** requests per second; default: the platform's request-rate limit from the spec (100) */
  requestsPerSecond?: number;
  /** how many requests may leave at once after a quiet period; default 1 (even pacing) */
  burst?: number;
}

/**
 * Client-side limiter shared by every call of one client: a generic cell rate algorithm (a token
 * bucket that reserves each request's slot at once, so waiting callers keep their order). After a
 * 429 it pauses every caller for the advised time instead of letting them all hit the wall.
 */
export class RateLimiter {
  readonly requestsPerSecond: number;
  readonly burst: number;
  private readonly intervalMs: number;
  private readonly toleranceMs: number;
  /** theoretical arrival time of the next request */
  private tat = 0;
  private pausedUntil = 0;

  constructor(
    options: Required<RateLimitOptions>,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.requestsPerSecond = options.requestsPerSecond;
    this.burst = options.burst;
    this.intervalMs = 1000 / options.requestsPerSecond;
    this.toleranceMs = (options.burst - 1) * this.intervalMs;
  }

  /** Resolves when this request may leave; rejects if `signal` aborts while waiting. */
  acquire(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const tat = Math.max(this.tat, now, this.pausedUntil);
    const startAt = Math.max(now, tat - this.toleranceMs, this.pausedUntil);
    this.tat = Math.max(tat, startAt) + this.intervalMs;
    return sleep(startAt - now, signal);
  }

  /** No request leaves before `ms` from now (the server asked us to wait). */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}
