// Rate limiting (with --allow-burst; last, so the burst spends no other scenario's budget): more
// requests than the spec's request rate (x-rate-limits) meet its exceeded status (429); a
// Retry-After, when sent, is valid; after the advised wait, requests succeed again.
//
// A burst without a 429 fails only when it shows the rate was exceeded: more than twice the limit
// (burstThreshold) answered 200 with each request sent and answered inside one period. A slower
// path (a loaded machine, a long link, a slow server) cannot exceed the rate, and proves nothing.

import type { Answer } from "../src/http.js";
import { retryAfterMs, sleep } from "../src/http.js";
import { burstThreshold, mostWithinOnePeriod, rateText, requestRate, type Timed } from "../src/rate.js";
import { check, type Need, scenario } from "../src/scenario.js";

const NEEDS: Need[] = ["burst", "rate-limited"];
const ME = "/iam/clients/me";
const { limit, periodSeconds, exceededStatus: LIMITED } = requestRate();
/** Requests sent at once in a round; rounds follow each other as fast as the target answers. */
const ROUND = 60;
/** Enough rounds to send three times the limit: on a path fast enough, more than burstThreshold() lands inside one period. */
const ROUNDS = Math.floor((3 * limit) / ROUND) + 1;
/** The wait after a limited answer without Retry-After: the rate's period. */
const PERIOD_MS = periodSeconds * 1000;
const burst: { answers: Answer[]; limited: Answer[]; succeeded: Timed[]; ran: boolean } = {
  answers: [],
  limited: [],
  succeeded: [],
  ran: false,
};

scenario(
  {
    id: "rate-limit.burst-meets-429",
    title: `a burst above the platform's ${rateText()} meets ${LIMITED}`,
    severity: "must",
    operation: "getCurrentClient",
    needs: NEEDS,
    calls: [`GET /iam/clients/me × up to ${ROUNDS * ROUND}, ${ROUND} at a time, unpaced`],
  },
  async ({ http, skip }) => {
    burst.ran = true;
    const timed = async () => {
      const start = performance.now();
      const answer = await http.call({ method: "GET", path: ME, paced: false, retry: false });
      if (answer.status === 200) burst.succeeded.push({ start, end: performance.now() });
      return answer;
    };
    const exceeded = () => mostWithinOnePeriod(burst.succeeded) > burstThreshold();
    for (let round = 0; round < ROUNDS && burst.limited.length === 0 && !exceeded(); round++) {
      const answers = await Promise.all(Array.from({ length: ROUND }, timed));
      burst.answers.push(...answers);
      burst.limited.push(...answers.filter((a) => a.status === LIMITED));
    }
    const other = burst.answers.filter((a) => a.status !== 200 && a.status !== LIMITED);
    check(
      other.length === 0,
      `the burst met ${other.map((a) => a.status).join(", ")} besides 200 and ${LIMITED}`,
    );
    if (burst.limited.length > 0) return;
    const most = mostWithinOnePeriod(burst.succeeded);
    if (most <= burstThreshold())
      return skip(
        `${burst.answers.length} requests all answered 200, but at most ${most} of them were sent and answered within one period (${periodSeconds} s) on this path; ` +
          `a limiter of ${rateText()} may admit up to ${burstThreshold()} there, so no ${LIMITED} was due and the burst proves nothing`,
      );
    check(
      false,
      `${most} requests sent and answered within ${periodSeconds} s all answered 200, more than twice the platform's ${rateText()}; expected ${LIMITED}`,
    );
  },
);

scenario(
  {
    id: "rate-limit.retry-after-valid",
    title: `a Retry-After on a ${LIMITED}, when sent, is delta-seconds or an HTTP date`,
    severity: "should",
    operation: "getCurrentClient",
    needs: NEEDS,
    calls: [`(the ${LIMITED} answers above)`],
  },
  async ({ skip, cite }) => {
    if (burst.limited.length === 0) return skip(`no ${LIMITED} was met (see rate-limit.burst-meets-429)`);
    cite(...burst.limited.slice(0, 3));
    const sent = burst.limited.filter((a) => a.headers["retry-after"] !== undefined);
    if (sent.length === 0)
      return skip("no Retry-After was sent (the seed does not show whether the platform sends it)");
    const invalid = sent.filter((a) => retryAfterMs(a.headers["retry-after"]) === undefined);
    check(
      invalid.length === 0,
      `invalid Retry-After values: ${[...new Set(invalid.map((a) => String(a.headers["retry-after"])))].join(", ")}`,
    );
  },
);

scenario(
  {
    id: "rate-limit.recovers-after-wait",
    title: `after the advised wait (Retry-After, else the rate's period of ${periodSeconds} s), requests succeed again`,
    severity: "must",
    operation: "getCurrentClient",
    needs: NEEDS,
    calls: ["wait", "GET /iam/clients/me"],
  },
  async ({ http, skip }) => {
    if (burst.limited.length === 0) return skip(`no ${LIMITED} was met (see rate-limit.burst-meets-429)`);
    const advised = Math.max(
      PERIOD_MS,
      ...burst.limited.map((a) => retryAfterMs(a.headers["retry-after"]) ?? PERIOD_MS),
    );
    await sleep(Math.min(advised, 30_000) + 100);
    const answer = await http.call({ method: "GET", path: ME, retry: false });
    check(answer.status === 200, `after waiting ${advised} ms the request answered ${answer.status}`);
  },
);
