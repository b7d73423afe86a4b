// Rate limiting (with --allow-burst; last, so the burst spends no other scenario's budget): more
// requests than the spec's request rate (x-rate-limits) meet its exceeded status (429); a
// Retry-After, when sent, is valid; after the advised wait, requests succeed again.
//
// A burst without a 429 fails only when it shows the rate was exceeded: more than twice the limit
// (burstThreshold) answered 200 with each request sent and answered inside one period. A slower
// path (a loaded machine, a long link, a slow server) cannot exceed the rate, and proves nothing.

import { check, type Need, scenario, step } from "../src/active/scenario.js";
import {
  burstThreshold,
  mostWithinOnePeriod,
  rateText,
  requestRate,
  retryAfterMs,
  type Timed,
} from "../src/facts/rate.js";
import type { Answer } from "../src/http/http.js";
import { sleep } from "../src/http/http.js";

const NEEDS: Need[] = ["burst", "rate-limited"];
const ME = "/iam/clients/me";
const { limit, periodSeconds, exceededStatus: LIMITED } = requestRate();
/** Requests sent at once in a round; rounds follow each other as fast as the target answers. */
const ROUND = 60;
/** Enough rounds to send three times the limit: on a path fast enough, more than burstThreshold() lands inside one period. */
const ROUNDS = Math.floor((3 * limit) / ROUND) + 1;
/** The wait after a limited answer without Retry-After: the rate's period. */
const PERIOD_MS = periodSeconds * 1000;
const burst: { limited: Answer[]; succeeded: Timed[] } = { limited: [], succeeded: [] };

// The burst: what the judge's rate-limit.burst-meets-429 and rate-limit.retry-after-valid judge.
step(
  {
    title: `a burst above the platform's ${rateText()}`,
    needs: NEEDS,
    results: ["rate-limit.burst-meets-429", "rate-limit.retry-after-valid", "rate-limit.recovers-after-wait"],
  },
  async ({ http }) => {
    const timed = async () => {
      const start = performance.now();
      const answer = await http.call({ method: "GET", path: ME, paced: false, retry: false });
      if (answer.status === 200) burst.succeeded.push({ start, end: performance.now() });
      return answer;
    };
    const exceeded = () => mostWithinOnePeriod(burst.succeeded) > burstThreshold();
    for (let round = 0; round < ROUNDS && burst.limited.length === 0 && !exceeded(); round++) {
      const answers = await Promise.all(Array.from({ length: ROUND }, timed));
      burst.limited.push(...answers.filter((a) => a.status === LIMITED));
    }
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
