// Timings that add up. A wait before a retry is said where it is made (the HTTP layer's `waiting`,
// the exchange's waitedMs), whatever it follows (a 5xx, no answer); a result's time includes its
// retries and waits (discovery's steps, made before their tests, too); and report.json's time
// account splits the whole run into requests, waits by reason and the suite's own time. Every
// target is on loopback; waits are scaled down, and only lower bounds are asserted on real time.

import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../src/active/run.js";
import { DEFAULTS } from "../src/cli/options.js";
import { createHttp } from "../src/http/http.js";
import type { Wait } from "../src/shared/activity.js";
import type { Evidence } from "../src/shared/context.js";
import { createPacer } from "../src/shared/pacer.js";
import { type FaultyTarget, startFaultyTarget } from "./faulty-target.js";

describe("the HTTP layer says each wait before a retry", () => {
  let server: Server;
  let url: string;
  const counts = new Map<string, number>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      const n = (counts.get(req.url ?? "") ?? 0) + 1;
      counts.set(req.url ?? "", n);
      if (req.url === "/flaky" && n === 1) {
        res.writeHead(500, { "content-type": "application/json" }).end('{"message":"later"}');
        return;
      }
      // No answer the first time: the connection is cut before any byte.
      if (req.url === "/silent" && n === 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const client = () => {
    const evidence: Evidence[] = [];
    const waits: Wait[] = [];
    const sent: string[] = [];
    const http = createHttp({
      baseUrl: url,
      apiKey: "1$test-token",
      pacer: createPacer(0),
      timeScale: 0.01,
      record: (e) => evidence.push(e),
      waiting: (w) => waits.push(w),
      sending: (r) => sent.push(`${r.method} ${r.url}`),
    });
    return { http, evidence, waits, sent };
  };

  it("after a 500: its reason and length, and the exchange's waitedMs", async () => {
    const { http, evidence, waits, sent } = client();
    const answer = await http.send({ method: "GET", path: "/flaky" } as never);
    expect(answer.status).toBe(200);
    expect(sent).toEqual(["GET /flaky", "GET /flaky"]);
    expect(waits.map((w) => [w.reason, w.ms, w.url])).toEqual([["after 500", 10, "/flaky"]]);
    expect(evidence.map((e) => [e.status, e.waitedMs])).toEqual([
      [500, 10],
      [200, undefined],
    ]);
  });

  it("after no answer: the pause before the next try is a wait too", async () => {
    const { http, evidence, waits } = client();
    const answer = await http.send({ method: "GET", path: "/silent" } as never);
    expect(answer.status).toBe(200);
    expect(waits.map((w) => [w.reason, w.ms])).toEqual([["after no answer", 10]]);
    expect(evidence.map((e) => [e.status, e.waitedMs])).toEqual([
      [null, 10],
      [200, undefined],
    ]);
  });
});

describe("a run's time", () => {
  let target: FaultyTarget;
  let served = 0;
  beforeAll(async () => {
    // The token check answers 500 twice before it answers: two retries, each after a wait.
    target = await startFaultyTarget({
      name: "current client answers 500 twice",
      fails: [],
      request(exchange) {
        if (exchange.path === "/iam/clients/me" && served++ < 2)
          return { status: 500, headers: {}, body: { message: "try again in a few seconds" } };
        return undefined;
      },
    });
  });
  afterAll(() => target.close());

  it("a discovery step's time holds its retries and waits; the account adds up to the run's", async () => {
    const report = mkdtempSync(join(tmpdir(), "run-time-"));
    const result = await runConformance(
      { ...DEFAULTS, target: target.url, only: ["discovery.*"], report, timeScale: 0.2 },
      {
        write: () => {},
        notice: () => {},
        env: { GCORE_API_KEY: target.sim.apiKey, GCORE_RESELLER_API_KEY: target.sim.resellerApiKey },
      },
    );
    const run = result.report;
    expect(run).toBeDefined();
    if (!run) return;
    const step = run.scenarios.find((s) => s.id === "discovery.current-client");
    const waited = (step?.evidence ?? []).map((e) => e.waitedMs ?? 0);
    // Two 500s, each followed by a wait of 1000 ms × 0.2.
    expect(waited.filter((ms) => ms > 0)).toEqual([200, 200]);
    const parts = (step?.evidence ?? []).reduce((sum, e) => sum + (e.durationMs ?? 0) + (e.waitedMs ?? 0), 0);
    expect(step?.durationMs).toBeGreaterThanOrEqual(parts);
    expect(step?.durationMs).toBeGreaterThanOrEqual(400);

    const time = run.time;
    expect(time).toBeDefined();
    if (!time) return;
    expect(time.waits.find((w) => w.reason === "after 500")).toMatchObject({ count: 2 });
    expect(time.waits.find((w) => w.reason === "after 500")?.ms).toBeGreaterThanOrEqual(390);
    expect(time.requests.count).toBeGreaterThanOrEqual(5);
    const sum = time.requests.ms + time.waits.reduce((s, w) => s + w.ms, 0) + time.suiteMs;
    expect(Math.abs(sum - run.durationMs)).toBeLessThanOrEqual(run.durationMs * 0.05);
  }, 120_000);
});
