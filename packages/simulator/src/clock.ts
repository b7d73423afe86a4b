// The simulator's clock: real time since start plus whatever the admin surface advanced it by.
// Task durations are scaled by --time-scale; the clock itself is not, so timestamps stay readable.

export interface Clock {
  /** Milliseconds since the epoch, as the simulated platform sees it. */
  now(): number;
  /** Moves the clock forward (never back) by `ms`. */
  advance(ms: number): void;
}

export function createClock(start: () => number = Date.now): Clock {
  let offset = 0;
  return {
    now: () => start() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward: got ${ms} ms.`);
      offset += ms;
    },
  };
}

/** "2026-11-21T14:03:07.123" — the seed's date-time without a zone offset (UTC). */
export function withoutOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, "");
}
