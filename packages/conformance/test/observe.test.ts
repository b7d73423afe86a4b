// `conformance observe` in front of the simulator with the project's own client as the traffic:
// nothing fails, every rule of the traffic judge gets something to judge, and what the client sees
// through the proxy is byte for byte what the upstream sent.

import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator } from "@platform-api/simulator";
import { beforeAll, describe, expect, it } from "vitest";
import { runVerify, startObserving } from "../src/traffic/commands.js";
import { runClientTraffic } from "./client-traffic.js";

/** Headers of a connection, not of the answer (RFC 9110 §7.6.1), and the proxy's Host. */
const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "date"]);

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A tap in front of the simulator: forwards each request and, before answering, numbers the
 * answer (`x-tap-seq`) and keeps what it sends — the upstream's side of the comparison.
 */
async function startTap(target: string) {
  const sent = new Map<string, Seen>();
  let seq = 0;
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const forward = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on("data", (c: Buffer) => body.push(c));
          answer.on("end", () => {
            const n = String(++seq);
            const headers: Record<string, string> = { "x-tap-seq": n };
            for (const [name, value] of Object.entries(answer.headers))
              if (!HOP.has(name) && typeof value === "string") headers[name] = value;
            const text = Buffer.concat(body).toString("utf8");
            sent.set(n, { status: answer.statusCode ?? 0, headers, body: text });
            res.writeHead(answer.statusCode ?? 502, headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe("observe: the project's client through the proxy, in front of the simulator", () => {
  const dir = mkdtempSync(join(tmpdir(), "observe-"));
  const har = join(dir, "traffic.har");
  const received: Seen[] = [];
  let report: Awaited<ReturnType<typeof observeOnce>>;

  async function observeOnce() {
    const sim = await startSimulator({ port: 0, timeScale: 0.01, env: {} });
    const tap = await startTap(sim.url);
    const observing = await startObserving({ upstream: tap.url, host: "127.0.0.1", port: 0, record: har });
    try {
      // The client's own fetch, recording every answer as the client sees it.
      const seeing: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const body = await response.clone().text();
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          if (!HOP.has(name)) headers[name] = value;
        });
        received.push({ status: response.status, headers, body });
        return response;
      };
      const met = await runClientTraffic({
        baseUrl: observing.url,
        apiKey: sim.apiKey,
        resellerApiKey: sim.resellerApiKey,
        pollIntervalMs: 20,
        fetch: seeing,
      });
      await observing.stop();
      return {
        met,
        sent: tap.sent,
        report: observing.judge.report({ target: "test", startedAt: new Date(), options: {}, strict: true }),
      };
    } finally {
      await observing.stop();
      await tap.close();
      await sim.close();
    }
  }

  beforeAll(async () => {
    report = await observeOnce();
  });

  it("finds nothing wrong, with something to judge for every rule the traffic reaches", () => {
    const failed = report.report.scenarios.filter((s) => s.status !== "passed" && s.status !== "skipped");
    expect(failed.map((s) => `${s.id}: ${s.reason}`)).toEqual([]);
    const passed = new Set(report.report.scenarios.filter((s) => s.status === "passed").map((s) => s.id));
    for (const id of [
      "schema.listRegions",
      "schema.getTask",
      "pagination.offset.count-stable.listRegions",
      "pagination.offset.walk-visits-each-once.listRegions",
      "pagination.offset.walk-visits-each-once.listQuotaLimitRequests",
      "pagination.offset.page-within-limit.listInstances",
      "pagination.offset.count-is-total.listRegions",
      "pagination.page.links-keep-filters",
      "pagination.page.next-previous-neighbours.listAiTasks",
      "tasks.poll.state-moves-forward",
      "tasks.finished.created-id",
      "tasks.error.has-reason",
      "tasks.error.created-resources-null",
      "rate-limit.retry-after-valid",
      "auth.reseller.client-token-forbidden",
    ])
      expect(passed, id).toContain(id);
    expect(report.report.traffic?.undescribed.count).toBe(0);
    expect(report.report.traffic?.dropped).toEqual({ walks: 0, items: 0, tasks: 0, tokens: 0, bodies: 0 });
  });

  it("passes every answer on byte for byte: status, headers and body as the upstream sent them", () => {
    expect(received.length).toBeGreaterThan(100);
    expect(received.length).toBe(report.sent.size);
    for (const seen of received) {
      const sent = report.sent.get(seen.headers["x-tap-seq"] ?? "");
      expect(sent, "an answer the upstream did not send").toBeDefined();
      expect(seen).toEqual(sent);
    }
  });

  it("records a HAR whose judgement through verify --har is the same", async () => {
    const lines: string[] = [];
    const verified = await runVerify(
      { har, report: join(dir, "verify"), strict: true },
      { write: (line) => lines.push(line), env: {} },
    );
    expect(verified.exitCode).toBe(0);
    const statuses = (r: typeof report.report) => r.scenarios.map((s) => `${s.id} ${s.status}`);
    if (!verified.report) throw new Error(`verify --har wrote no report (exit ${verified.exitCode})`);
    expect(statuses(verified.report)).toEqual(statuses(report.report));
    expect(readFileSync(har, "utf8")).toContain('"version":"1.2"');
  });
});
