// A platform that lets more than twice its documented rate through within one period, from one
// token, without a single 429 does not enforce the rate (the bound: burstThreshold, src/rate.ts).
// Only exchanges that started and ended within the period count (src/traffic/judge.ts): the
// platform handled each one inside it, however slowly the proxy or the client went. Slower traffic
// is not judged.

import { burstThreshold, rateText, requestRate } from "../../rate.js";
import { rule } from "./types.js";

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
