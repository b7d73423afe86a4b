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
