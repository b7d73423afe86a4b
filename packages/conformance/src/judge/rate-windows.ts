// Each token's latest answers, as far as the rate rules need them (src/rules/rate-limit-*.ts): when
// its latest 2xx exchanges started and ended (enough to count one period past twice the rate), and
// when its latest exceeded-status answer ended.
//
// The platform handled each request at some moment between its start and its answer's end, as the
// producer saw them: only 2xx answers whose whole interval lies within one period ending now are
// certain to have been counted by the platform in that period. A slow or loaded hop widens the
// intervals and so can only hide a burst, never make one up.

import type { AnswerEvent } from "../rules/types.js";
import { BoundedMap } from "../shared/bounded-map.js";

interface RateWindow {
  succeeded: { start: number; end: number }[];
  lastLimitedEnd: number;
}

export interface RateWindows {
  /** A token's answer from `start` to `end` (ms, one clock): what the period ending with it holds. */
  answered(token: string, start: number, end: number, status: number): AnswerEvent["recent"];
}

export function createRateWindows(options: {
  /** Most tokens whose window is kept (LIMITS.tokens); the least recently seen is forgotten first. */
  tokens: number;
  /** 2xx answers kept per token: one more than a burst needs (burstThreshold() + 1). */
  succeeded: number;
  /** The spec's request rate: its period, and the status that says it was exceeded. */
  periodSeconds: number;
  exceededStatus: number;
}): RateWindows {
  const windows = new BoundedMap<string, RateWindow>(options.tokens);
  return {
    answered(token, start, end, status) {
      const seen = windows.get(token) ?? { succeeded: [], lastLimitedEnd: Number.NEGATIVE_INFINITY };
      if (status >= 200 && status < 300) {
        seen.succeeded.push({ start, end });
        if (seen.succeeded.length > options.succeeded) seen.succeeded.shift();
      }
      if (status === options.exceededStatus) seen.lastLimitedEnd = Math.max(seen.lastLimitedEnd, end);
      windows.set(token, seen);
      const since = end - options.periodSeconds * 1000;
      return {
        succeeded: seen.succeeded.filter((r) => r.start >= since && r.end <= end).length,
        limited: seen.lastLimitedEnd >= since,
      };
    },
  };
}
