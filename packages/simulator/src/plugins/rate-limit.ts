// Rule: the platform's request rate, read from the spec's `x-rate-limits` (the limit that applies to
// all calls: so many requests per period per client IP), counted over any period rather than fixed
// windows (sliding-window-store.ts), refused with the spec's status and, unless switched off, a
// Retry-After in seconds. The `rateLimit` option replaces the spec's limit (0: no limit); the admin
// surface is never limited (its routes opt out).

import rateLimit from "@fastify/rate-limit";
import type { RateLimit } from "@platform-api/spec";
import { ApiError } from "../errors.js";
import { shared } from "./shared.js";
import { SlidingWindowStore } from "./sliding-window-store.js";

export interface RateLimitOptions {
  /** The spec's request rate (`model.conventions.requestRate`). */
  requestRate: RateLimit;
  /** Requests per period instead of the spec's limit; 0 turns the limit off. */
  limit?: number | undefined;
  /** Whether a refusal carries Retry-After (the seed does not show it). */
  retryAfter: boolean;
}

/** "second", "60 seconds": the period as the refusal names it. */
export const periodText = (seconds: number) => (seconds === 1 ? "second" : `${seconds} seconds`);

export const rateLimitPlugin = shared<RateLimitOptions>("rate-limit", async (app, options) => {
  const { requestRate, retryAfter } = options;
  const max = options.limit ?? requestRate.limit;
  if (max === 0) return;
  const noHeader = { "x-ratelimit-limit": false, "x-ratelimit-remaining": false, "x-ratelimit-reset": false };
  await app.register(rateLimit, {
    global: true,
    max,
    timeWindow: requestRate.periodSeconds * 1000,
    store: SlidingWindowStore,
    hook: "onRequest",
    keyGenerator: (request) => request.ip,
    addHeadersOnExceeding: noHeader,
    addHeaders: { ...noHeader, "retry-after": retryAfter },
    errorResponseBuilder: (request, context) =>
      new ApiError(
        requestRate.exceededStatus,
        `Too many requests: more than ${context.max} per ${periodText(requestRate.periodSeconds)} from ${request.ip}. Slow down and retry after ${context.after}.`,
      ),
  });
});
