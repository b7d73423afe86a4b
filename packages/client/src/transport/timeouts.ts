/**
 * Attempt timeouts on one shared, self-stopping interval instead of a timer per attempt (a timer
 * per request is a measurable share of a request's cost). An attempt times out between its
 * deadline and one tick later; the tick is a tenth of the configured timeout (5 ms to 1 s), so an
 * attempt ends at most that late, also when the call's deadline shortened it.
 */
export interface AttemptTimeouts {
  /** Aborts `controller` with `reason` once `ms` have passed, unless the returned function is called first. */
  start(controller: AbortController, ms: number, reason: unknown): () => void;
}

// A closure, not a class: its state is local variables, which the bundle's minifier renames.
export function attemptTimeouts(timeoutMs: number): AttemptTimeouts {
  const pending = new Set<{ controller: AbortController; at: number; reason: unknown }>();
  const tickMs = Math.min(1000, Math.max(5, Math.floor(timeoutMs / 10)));
  let interval: ReturnType<typeof setInterval> | undefined;
  // Stops the interval when nothing is pending, so an idle client keeps no timer running.
  const tick = () => {
    if (pending.size === 0) {
      clearInterval(interval);
      interval = undefined;
      return;
    }
    const now = Date.now();
    for (const entry of pending) {
      if (now >= entry.at) {
        pending.delete(entry);
        entry.controller.abort(entry.reason);
      }
    }
  };
  return {
    start(controller, ms, reason) {
      const entry = { controller, at: Date.now() + ms, reason };
      pending.add(entry);
      if (!interval) {
        interval = setInterval(tick, tickMs);
        // Never keeps a process alive on its own.
        (interval as { unref?: () => void }).unref?.();
      }
      return () => {
        pending.delete(entry);
      };
    },
  };
}
