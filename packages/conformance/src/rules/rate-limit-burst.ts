// A platform that lets more than twice its documented rate through within one period, from one
// token, without a single 429 does not enforce the rate (the bound: burstThreshold, src/facts/rate.ts).
// Only exchanges that started and ended within the period count (src/judge/judge.ts): the
// platform handled each one inside it, however slowly the proxy or the client went. Slower traffic
// is not judged; a 429 the traffic met is the limit at work.

import { burstThreshold, rateText, requestRate } from "../facts/rate.js";
import { rule } from "./types.js";

export const rateLimitBurstMeets429 = rule({
  id: "rate-limit.burst-meets-429",
  severity: "must",
  refuses: true,
  perOperation: false,
  appliesTo: "every operation (the answers of one token within one period)",
  needs: () => ["burst", "rate-limited"],
  unjudged: () =>
    `no stretch of more than ${burstThreshold()} answers sent and answered within one period (${requestRate().periodSeconds} s) from one token without a ${requestRate().exceededStatus}: on this path the rate was never exceeded, so no ${requestRate().exceededStatus} was due and nothing proves or disproves the limit`,
  judges: `every answer after more than twice the spec's rate from one token within its period: some met ${requestRate().exceededStatus}`,
  on: "answer",
  applies: () => true,
  title: () => `a burst above the platform's ${rateText()} meets ${requestRate().exceededStatus}`,
  judge: ({ recent, auth, answer }) => {
    const { periodSeconds, exceededStatus } = requestRate();
    // A 429 met: the limit is enforced (whether it came too early is not this rule's question).
    if (answer.status === exceededStatus) return null;
    if (recent.succeeded <= burstThreshold()) return undefined;
    return recent.limited
      ? null
      : `${recent.succeeded} requests of ${auth.token ?? "one client"} started and answered within ${periodSeconds} s all succeeded, more than twice the platform's ${rateText()}, and none met ${exceededStatus}`;
  },
});
