// The platform's request rate, read from the spec's `x-rate-limits` (the limit that applies to all
// calls): what the suite's own pace must stay under, and what the burst scenarios must exceed.

import type { RateLimit } from "@platform-api/spec";
import { specModel } from "./spec.js";

export const requestRate = (): RateLimit => specModel().conventions.requestRate;

/** The request rate as requests per second (the unit of --rate-limit and of the pacer). */
export const requestsPerSecond = (): number => requestRate().limit / requestRate().periodSeconds;

/** The rate as the spec states it: "100 requests per second", "600 requests per 60 seconds". */
export function rateText(): string {
  const { limit, periodSeconds } = requestRate();
  return `${limit} requests per ${periodSeconds === 1 ? "second" : `${periodSeconds} seconds`}`;
}

/** The suite's default pace: half the platform's rate, room for anything else sharing the address. */
export const defaultRateLimit = (): number => requestsPerSecond() / 2;

/**
 * The slowest pace --rate-limit takes: one request every 100 s. Slower ones would outlast any run
 * (and past about 5e-7 the pacer's gap no longer fits a timer, which then fires at once).
 */
export const MIN_RATE_LIMIT = 0.01;

/**
 * More answers than this that succeeded within one period, from one token, with no exceeded status
 * among them, is a rate not enforced. Twice the limit, because a fixed-window limiter may rightly
 * admit a full window at the end of one period and another at the start of the next; beyond that
 * no way of counting admits it (a tenth more is left for the clocks).
 */
export const burstThreshold = (): number => Math.ceil(2.2 * requestRate().limit);

/** A request as the client saw it: when it was sent and when its answer ended (ms, one clock). */
export interface Timed {
  start: number;
  end: number;
}

/**
 * The most requests that were both sent and answered inside one period of the rate. The server
 * handled each of those inside that period, however slow the path; a request whose interval is
 * longer than that cannot be placed, so a slow path only hides a burst, never makes one up.
 */
export function mostWithinOnePeriod(requests: readonly Timed[]): number {
  const periodMs = requestRate().periodSeconds * 1000;
  let most = 0;
  for (const { end } of requests) {
    const since = end - periodMs;
    const inside = requests.filter((r) => r.start >= since && r.end <= end).length;
    most = Math.max(most, inside);
  }
  return most;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or invalid. */
export function retryAfterMs(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  return undefined;
}
