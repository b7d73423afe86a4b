// Rate limiting (with --allow-burst; last, so the burst spends no other scenario's budget): more
// than 100 requests per second meet 429; a Retry-After, when sent, is valid; after the advised
// wait, requests succeed again.

import type { Answer } from "../src/http.js";
import { retryAfterMs, sleep } from "../src/http.js";
import { check, type Need, scenario } from "../src/scenario.js";

const NEEDS: Need[] = ["burst", "rate-limited"];
const ME = "/iam/clients/me";
const burst: { answers: Answer[]; limited: Answer[]; ran: boolean } = {
  answers: [],
  limited: [],
  ran: false,
};

scenario(
  {
    id: "rate-limit.burst-meets-429",
    title: "a burst above 100 requests per second meets 429",
    severity: "must",
    operation: "getCurrentClient",
    needs: NEEDS,
    calls: ["GET /iam/clients/me × up to 360, 60 at a time, unpaced"],
  },
  async ({ http }) => {
    burst.ran = true;
    for (let round = 0; round < 6 && burst.limited.length === 0; round++) {
      const answers = await Promise.all(
        Array.from({ length: 60 }, () => http.call({ method: "GET", path: ME, paced: false, retry: false })),
      );
      burst.answers.push(...answers);
      burst.limited.push(...answers.filter((a) => a.status === 429));
    }
    const other = burst.answers.filter((a) => a.status !== 200 && a.status !== 429);
    check(other.length === 0, `the burst met ${other.map((a) => a.status).join(", ")} besides 200 and 429`);
    check(
      burst.limited.length > 0,
      `${burst.answers.length} requests in a burst all answered 200; expected 429 beyond 100 per second`,
    );
  },
);

scenario(
  {
    id: "rate-limit.retry-after-valid",
    title: "a Retry-After on a 429, when sent, is delta-seconds or an HTTP date",
    severity: "should",
    operation: "getCurrentClient",
    needs: NEEDS,
    calls: ["(the 429 answers above)"],
  },
  async ({ skip, cite }) => {
    if (burst.limited.length === 0) return skip("no 429 was met (see rate-limit.burst-meets-429)");
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
    title: "after the advised wait (Retry-After, else one second), requests succeed again",
    severity: "must",
    operation: "getCurrentClient",
    needs: NEEDS,
    calls: ["wait", "GET /iam/clients/me"],
  },
  async ({ http, skip }) => {
    if (burst.limited.length === 0) return skip("no 429 was met (see rate-limit.burst-meets-429)");
    const advised = Math.max(
      1000,
      ...burst.limited.map((a) => retryAfterMs(a.headers["retry-after"]) ?? 1000),
    );
    await sleep(Math.min(advised, 30_000) + 100);
    const answer = await http.call({ method: "GET", path: ME, retry: false });
    check(answer.status === 200, `after waiting ${advised} ms the request answered ${answer.status}`);
  },
);
