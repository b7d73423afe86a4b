// A platform that lets more than twice its documented rate through within one period, from one
// token, without a single 429 does not enforce the rate. Twice, because a fixed-window limiter may
// rightly admit a full window at the end of one period and another at the start of the next;
// beyond that no way of counting admits it (a tenth more is left for the clocks). Only exchanges
// that started and ended within the period count (src/traffic/judge.ts): the platform handled
// each one inside it, however slowly the proxy or the client went. Slower traffic is not judged.

import { rateText, requestRate } from "../../rate.js";
import { rule } from "./types.js";

/** More 2xx answers than this within one period, from one token, with no 429 among them, is a deviation. */
export const burstThreshold = (): number => Math.ceil(2.2 * requestRate().limit);

export const rateLimitBurstMeets429 = rule({
  id: "rate-limit.burst-meets-429",
  severity: "must",
  perOperation: false,
  judges: `every answer after more than twice the spec's rate from one token within its period: some met ${requestRate().exceededStatus}`,
  on: "answer",
  applies: () => true,
  title: () => `a burst above the platform's ${rateText()} meets ${requestRate().exceededStatus}`,
  judge: ({ recent, auth }) => {
    const { periodSeconds, exceededStatus } = requestRate();
    if (recent.succeeded <= burstThreshold()) return undefined;
    return recent.limited
      ? null
      : `${recent.succeeded} requests of ${auth.token ?? "one client"} started and answered within ${periodSeconds} s all succeeded, more than twice the platform's ${rateText()}, and none met ${exceededStatus}`;
  },
});
