/**
 * Attempt timeouts on one shared, self-stopping interval instead of a timer per attempt (a timer
 * per request is a measurable share of a request's cost). An attempt times out between its
 * deadline and one tick later; the tick is a tenth of the configured timeout (5 ms to 1 s), so an
 * attempt ends at most that late, also when the call's deadline shortened it.
 */
export class AttemptTimeouts {
  private readonly pending = new Set<{ controller: AbortController; at: number; reason: unknown }>();
  private interval: ReturnType<typeof setInterval> | undefined;
  // `declare`d (set in the constructor): no field declaration is emitted, for bundle size.
  declare private readonly tickMs: number;

  constructor(timeoutMs: number) {
    this.tickMs = Math.min(1000, Math.max(5, Math.floor(timeoutMs / 10)));
  }

  /** Aborts `controller` with `reason` once `ms` have passed, unless the returned function is called first. */
  start(controller: AbortController, ms: number, reason: unknown): () => void {
    const entry = { controller, at: Date.now() + ms, reason };
    this.pending.add(entry);
    if (!this.interval) {
      this.interval = setInterval(() => this.tick(), this.tickMs);
      // Never keeps a process alive on its own.
      (this.interval as { unref?: () => void }).unref?.();
    }
    return () => {
      this.pending.delete(entry);
    };
  }

  private tick(): void {
    if (this.pending.size === 0) {
      clearInterval(this.interval);
      this.interval = undefined;
      return;
    }
    const now = Date.now();
    for (const entry of this.pending) {
      if (now >= entry.at) {
        this.pending.delete(entry);
        entry.controller.abort(entry.reason);
      }
    }
  }
}
