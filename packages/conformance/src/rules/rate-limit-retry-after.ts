// A 429 that carries Retry-After carries a usable one: delta-seconds or an HTTP date. (Whether a
// 429 carries one at all the seed does not show: its absence is not judged.)

import { requestRate, retryAfterMs } from "../facts/rate.js";
import { rule } from "./types.js";

export const rateLimitRetryAfterValid = rule({
  id: "rate-limit.retry-after-valid",
  severity: "should",
  refuses: false,
  perOperation: false,
  appliesTo: "every operation (every answer with the rate's exceeded status)",
  needs: () => ["burst", "rate-limited"],
  unjudged: () =>
    `no ${requestRate().exceededStatus} with a Retry-After was met (the seed does not show whether the platform sends it)`,
  judges: `every ${requestRate().exceededStatus} with a Retry-After header: delta-seconds or an HTTP date`,
  on: "answer",
  applies: () => true,
  title: () => `a ${requestRate().exceededStatus} with Retry-After gives delta-seconds or an HTTP date`,
  judge: ({ answer, exchange }) => {
    if (answer.status !== requestRate().exceededStatus) return undefined;
    const value = exchange.responseHeaders["retry-after"];
    if (value === undefined) return undefined;
    return retryAfterMs(value) === undefined
      ? `${answer.method} ${answer.url} → ${answer.status} with Retry-After ${JSON.stringify(value)}: neither delta-seconds nor an HTTP date`
      : null;
  },
});
