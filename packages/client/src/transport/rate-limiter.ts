import { SPEC } from "../operations.js";
import { sleep } from "./sleep.js";

export interface RateLimitOptions {
  /** requests per second; default: the platform's request-rate limit from the spec (`x-rate-limits`) */
  requestsPerSecond?: number;
  /** how many requests may leave at once after a quiet period; default 1 (even pacing) */
  burst?: number;
}

export interface RateLimiterSettings extends Required<RateLimitOptions> {
  /** the span over which the server counts requests, in seconds; default the spec's (`x-rate-limits`) */
  periodSeconds?: number;
}

/**
 * Client-side limiter shared by every call of one client. Requests are paced by a generic cell
 * rate algorithm (a token bucket that reserves each request's slot at once, so waiting callers
 * keep their order), and a sliding window of actual send times guarantees that no period the server
 * counts over ever sees more than the limit, even when timers fire late and requests bunch up. The
 * window is that period plus two request intervals, a margin for the network jitter between our
 * send and the server's count (at 100 per second: at most 100 sends in any 1.02 s). After a 429 it
 * pauses every caller for the advised time instead of letting them all hit the wall.
 */
export class RateLimiter {
  // `declare`d fields are set in the constructor: no field declaration is emitted, for bundle size.
  declare readonly requestsPerSecond: number;
  declare readonly burst: number;
  declare readonly periodSeconds: number;
  declare private readonly intervalMs: number;
  declare private readonly toleranceMs: number;
  /** theoretical arrival time of the next request */
  private tat = 0;
  private pausedUntil = 0;
  /** send times of the last `windowSize` requests, oldest first (a ring) */
  declare private readonly sent: number[];
  declare private readonly windowSize: number;
  declare private readonly windowMs: number;
  private head = 0;

  declare private readonly now: () => number;

  constructor(options: RateLimiterSettings, now: () => number = () => performance.now()) {
    this.now = now;
    this.requestsPerSecond = options.requestsPerSecond;
    this.burst = options.burst;
    // Read from the spec, not from the options module: the limiter is a leaf the options point at.
    this.periodSeconds = options.periodSeconds ?? SPEC.conventions.requestRate.periodSeconds;
    this.intervalMs = 1000 / options.requestsPerSecond;
    this.toleranceMs = (options.burst - 1) * this.intervalMs;
    // The window holds at most this many sends per period; a huge rate needs no window.
    const perPeriod = options.requestsPerSecond * this.periodSeconds;
    this.windowSize = perPeriod <= 100_000 ? Math.max(1, Math.floor(perPeriod)) : 0;
    this.windowMs = this.periodSeconds * 1000 + 2 * this.intervalMs;
    this.sent = [];
  }

  /**
   * Resolves when this request may leave; rejects with the signal's reason if it aborts while
   * waiting. Returns undefined (no promise to await) when the request may leave at once.
   */
  acquire(signal?: AbortSignal): Promise<void> | undefined {
    const now = this.now();
    const tat = Math.max(this.tat, now, this.pausedUntil);
    const startAt = Math.max(now, tat - this.toleranceMs, this.pausedUntil);
    this.tat = Math.max(tat, startAt) + this.intervalMs;
    if (startAt <= now && this.windowWait(now) <= 0) {
      this.record(now);
      return undefined;
    }
    return this.acquireLater(startAt - now, signal);
  }

  private async acquireLater(wait: number, signal: AbortSignal | undefined): Promise<void> {
    await sleep(wait, signal);
    for (;;) {
      const now = this.now();
      const windowWait = Math.max(this.windowWait(now), this.pausedUntil - now);
      if (windowWait <= 0) {
        this.record(now);
        return;
      }
      await sleep(windowWait, signal);
    }
  }

  /** How long until one more send fits in the window. */
  private windowWait(now: number): number {
    if (this.windowSize === 0 || this.sent.length < this.windowSize) return 0;
    return (this.sent[this.head] as number) + this.windowMs - now;
  }

  private record(now: number): void {
    if (this.windowSize === 0) return;
    if (this.sent.length < this.windowSize) this.sent.push(now);
    else {
      this.sent[this.head] = now;
      this.head = (this.head + 1) % this.windowSize;
    }
  }

  /** No request leaves before `ms` from now (the server asked us to wait). */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }
}
