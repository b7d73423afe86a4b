// A store for @fastify/rate-limit that counts the requests of the last window (a sliding log).
// The plugin's own store counts in fixed windows, which lets up to twice the limit through around
// a window boundary; the spec's rule is so many requests per period (x-rate-limits), which every
// period must keep, not only the periods a fixed window happens to start.

type Callback = (error: Error | null, result: { current: number; ttl: number }) => void;

export class SlidingWindowStore {
  /** accepted requests' times per key, oldest first */
  private readonly accepted = new Map<string, number[]>();

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    const now = Date.now();
    const times = (this.accepted.get(key) ?? []).filter((t) => t > now - timeWindow);
    if (times.length < max) {
      times.push(now);
      this.accepted.set(key, times);
      callback(null, { current: times.length, ttl: timeWindow });
      return;
    }
    // Refused requests are not recorded: a caller that waits the advised time gets through.
    this.accepted.set(key, times);
    callback(null, { current: max + 1, ttl: (times[0] ?? now) + timeWindow - now });
  }

  /** The plugin asks route-level configurations for a child store; one log serves them all. */
  child(): SlidingWindowStore {
    return this;
  }
}
