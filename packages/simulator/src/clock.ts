// The simulator's clock: real time since start plus whatever the admin surface advanced it by.
// Task durations are scaled by --time-scale; the clock itself is not, so timestamps stay readable.

/**
 * The clock never passes 9999-12-31T23:59:59.999Z: the API writes its date-times with a four-digit
 * year (withoutOffset), and a later Date prints a six-digit "+010000-…" that no client reads as the
 * platform's date-time (Dates themselves end at +275760; the year is the tighter bound).
 */
export const CLOCK_END_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export interface Clock {
  /** Milliseconds since the epoch, as the simulated platform sees it. */
  now(): number;
  /** Moves the clock forward (never back, never past CLOCK_END_MS) by `ms`; else a RangeError. */
  advance(ms: number): void;
  /** Milliseconds the clock may still move forward. */
  remainingMs(): number;
}

export function createClock(start: () => number = Date.now): Clock {
  let offset = 0;
  const now = () => start() + offset;
  const remainingMs = () => Math.max(0, CLOCK_END_MS - now());
  return {
    now,
    remainingMs,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`The clock only moves forward: got ${ms} ms.`);
      const left = remainingMs();
      if (ms > left)
        throw new RangeError(
          `The clock can move at most ${left} ms more: past 9999-12-31T23:59:59.999 a date-time has no four-digit year.`,
        );
      offset += ms;
    },
  };
}

/** "2026-11-21T14:03:07.123" — the seed's date-time without a zone offset (UTC). */
export function withoutOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/Z$/, "");
}
