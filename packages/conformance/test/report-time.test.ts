// report.html's "Where the time went" accounts for the whole run: requests, waits by reason and
// the suite's own time add up to durationMs (within 5%); the waits table lists every answer the
// suite waited after (a 500 as well as a 429, the discovery's cited ones too), and never says
// "nothing waited" when exchanges say "then waited". Fixture reports, rendered without a browser.

import { describe, expect, it } from "vitest";
import { toHtml } from "../src/report/html.js";
import type { Evidence } from "../src/shared/context.js";
import type { Report, ScenarioResult } from "../src/shared/results.js";

const STARTED = Date.parse("2026-01-10T10:00:00.000Z");

function exchange(
  at: number,
  status: number | null,
  durationMs: number,
  waitedMs?: number,
  cited?: boolean,
): Evidence {
  return {
    method: "GET",
    path: "/cloud/v1/regions",
    status,
    excerpt: "{}",
    at: STARTED + at,
    durationMs,
    ...(waitedMs === undefined ? {} : { waitedMs }),
    ...(cited ? { cited } : {}),
  };
}

function result(id: string, evidence: Evidence[], durationMs = 10): ScenarioResult {
  return {
    id,
    title: id,
    severity: "must",
    status: "passed",
    operation: "listRegions",
    reason: null,
    evidence,
    durationMs,
  };
}

function report(scenarios: ScenarioResult[], durationMs: number, time?: Report["time"]): Report {
  return {
    target: "http://127.0.0.1:9",
    startedAt: new Date(STARTED).toISOString(),
    durationMs,
    options: {},
    summary: { passed: scenarios.length, failed: 0, warned: 0, skipped: 0 },
    scenarios,
    createdResources: [],
    ...(time ? { time } : {}),
  };
}

/** The parts of the time table (data-ms of each body row) and the total row's. */
function parts(html: string): { parts: Record<string, number>; total: number } {
  const section = html.slice(html.indexOf('id="where-the-time-went"'));
  const body = section.slice(0, section.indexOf("<tfoot>"));
  const found: Record<string, number> = {};
  for (const m of body.matchAll(/<tr data-part="([^"]+)" data-ms="(\d+)">/g))
    found[m[1] ?? ""] = Number(m[2]);
  const total = Number(/<tfoot><tr data-part="total" data-ms="(\d+)">/.exec(section)?.[1]);
  return { parts: found, total };
}

const sum = (values: Record<string, number>) => Object.values(values).reduce((a, b) => a + b, 0);

describe("where the time went", () => {
  it("shows the run's own account: requests, waits by reason and the suite's time add up to the total", () => {
    const run = report([result("discovery.current-client", [exchange(100, 200, 5)])], 102_000, {
      requests: { count: 271, ms: 1062 },
      waits: [
        { reason: "after 500", count: 12, ms: 12_000 },
        { reason: "after 429", count: 40, ms: 80_000 },
        { reason: "pacing", count: 197, ms: 3331 },
      ],
      suiteMs: 5607,
    });
    const html = toHtml(run);
    const { parts: found, total } = parts(html);
    expect(total).toBe(102_000);
    expect(found).toEqual({
      requests: 1062,
      "wait after 500": 12_000,
      "wait after 429": 80_000,
      "wait pacing": 3331,
      suite: 5607,
    });
    expect(Math.abs(sum(found) - total)).toBeLessThanOrEqual(total * 0.05);
    expect(html).toContain("Waiting before a retry, after 429");
  });

  it("without an account, makes one from the evidence: 12 exchanges that waited 1000 ms are 12 s of waits", () => {
    // Twelve 500s each followed by a 1 s wait and their retries, 50 ms each, in a 30 s run; one
    // exchange cited by a second result is the same exchange.
    const evidence: Evidence[] = [];
    for (let i = 0; i < 12; i++) {
      evidence.push(exchange(i * 2000, 500, 50, 1000));
      evidence.push(exchange(i * 2000 + 1050, 200, 50));
    }
    const run = report(
      [result("a", evidence), result("b", [{ ...evidence[1], cited: true } as Evidence])],
      30_000,
    );
    const html = toHtml(run);
    const { parts: found, total } = parts(html);
    expect(found.requests).toBe(1200);
    expect(found["wait after 500"]).toBe(12_000);
    expect(Math.abs(sum(found) - total)).toBeLessThanOrEqual(total * 0.05);
    expect(html).not.toContain('id="no-waits"');
    expect(html).toMatch(/<tr class="wait" data-result="a">/);
  });

  it("lists the discovery's waits, cited by its results, in the waits table", () => {
    const step = result(
      "discovery.current-client",
      [
        exchange(0, 500, 3, 1000, true),
        exchange(1003, 500, 3, 1000, true),
        exchange(2006, 200, 3, undefined, true),
      ],
      2009,
    );
    const html = toHtml(report([step], 3000));
    expect(html).not.toContain('id="no-waits"');
    const row = /<tr class="wait" data-result="discovery\.current-client">.*?<\/tr>/.exec(html)?.[0] ?? "";
    expect(row).toContain("2 <span");
    expect(row).toContain('data-label="Waited before retrying">2000 ms');
    expect(row).toContain('data-label="Next request of the run after">1000 ms');
  });

  it("says nothing waited only when nothing did", () => {
    const html = toHtml(report([result("a", [exchange(0, 200, 5)])], 1000));
    expect(html).toContain('id="no-waits"');
    // Waits the run counted after exchanges no result shows (a driver's) are said, not denied.
    const account = {
      requests: { count: 3, ms: 100 },
      waits: [{ reason: "after 503", count: 2, ms: 2000 }],
      suiteMs: 400,
    };
    const counted = toHtml(report([result("a", [exchange(0, 200, 5)])], 2500, account));
    expect(counted).not.toContain('id="no-waits"');
    expect(counted).toContain("2 waits before a retry in the run, 0 of them in a result's evidence");
  });
});
