// report.html as people see it: written by runs through the CLI's path (the embedded simulator's
// whole run, strict, which is also the proof that the embedded default fails nothing; and a target
// with one planted defect whose answer carries a <script> and an echo of the key), opened from its
// file in the system's Chromium (playwright-core, as the docs site is tested) with every
// request that is not the file itself aborted. The verdict, every operation of the spec, a
// failure's evidence with its headers, the 429 waits with their Retry-After; no script runs but
// the page's own, nothing is fetched, no key is shown. (Layout and filters at two widths and in
// both colour schemes: test/report-browser.test.ts, on fixture reports.)

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DEFAULT_TOKENS } from "@platform-api/simulator";
import { loadModel, matchOperation } from "@platform-api/spec";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedHints } from "../src/discovery/target.js";
import { allOffsetLists } from "../src/facts/offset.js";
import { factsOf } from "../src/report/html/exchanges.js";
import { FILTER_SCRIPT } from "../src/report/html/filters.js";
import { summariseReason } from "../src/report/html/summaries.js";
import { toHtml } from "../src/report/html.js";
import { isRecord } from "../src/shared/json.js";
import { createRedactor } from "../src/shared/redact.js";
import type { Report, ScenarioStatus } from "../src/shared/results.js";
import { actingCharacters } from "./acting-characters.js";
import { sharedChromium } from "./chromium.js";
import { defects } from "./defects.js";
import { type Defect, startFaultyTarget } from "./faulty-target.js";
import { type CliRun, failedIds, runCli } from "./run-cli.js";
import { runInProcess } from "./run-in-process.js";
import { tokenPrefix } from "./token-prefix.js";

const model = loadModel();
const limited = model.conventions.requestRate.exceededStatus;
const KEYS = [DEFAULT_TOKENS.client, DEFAULT_TOKENS.reseller];
/** Whether any form of either key (as sent, encoded, its secret part) is in the text. */
const leaksKey = (text: string) => createRedactor(KEYS)(text) !== text;
const STATUSES: ScenarioStatus[] = ["passed", "failed", "warned", "skipped"];

/** What a hostile server puts in an answer: markup that would run if the page did not escape it. */
const INJECTED = "<script>window.__injected = true</script><img src='x' onerror='window.__injected = true'>";

// The planted defect: ids of the reseller's quota requests typed as strings. Its answer also
// carries the injection and the key echoed back, in the first item, within the excerpt.
const STRING_IDS = defects().find((d) => d.name === "an id typed as a string");
if (!STRING_IDS?.response)
  throw new Error('test/defects.ts has no response defect "an id typed as a string".');
const QUOTA_REQUESTS = allOffsetLists().find((l) => l.operation.operationId === "listQuotaLimitRequests");
if (!QUOTA_REQUESTS) throw new Error("listQuotaLimitRequests is not an offset list of the spec.");
const hostile: Defect = {
  ...STRING_IDS,
  response(exchange, answer, sim) {
    STRING_IDS.response?.(exchange, answer, sim);
    const operation = matchOperation(model, exchange.method, exchange.path)?.operation.operationId;
    if (operation !== "listQuotaLimitRequests" || answer.status !== 200 || !isRecord(answer.body)) return;
    const [first] = (answer.body[QUOTA_REQUESTS.pagination.itemsField] as unknown[] | undefined) ?? [];
    if (isRecord(first)) first.id = `${String(first.id)}${INJECTED} ${sim.apiKey}`;
  },
};

interface Written {
  run: CliRun;
  dir: string;
  report: Report;
  html: string;
  url: string;
}

/**
 * A run whose report files stay: `how` (runCli, runInProcess) reads back the report files from a
 * folder of its own, then removes it; a later --report (the last one counts) sends every file,
 * report.html among them, to a folder this test keeps until it ends.
 */
async function written(
  how: (args: string[], env: Record<string, string>) => Promise<CliRun>,
  args: string[],
  env: Record<string, string> = {},
): Promise<Written> {
  const dir = mkdtempSync(join(tmpdir(), "conformance-html-"));
  const run = await how(["--report", dir, ...args], env);
  const file = join(dir, "report.html");
  let html: string;
  let report: Report;
  try {
    html = readFileSync(file, "utf8");
    report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
  } catch (error) {
    throw new Error(`the run wrote no report (exit ${run.code}):\n${run.stdout}${run.stderr}\n${error}`);
  }
  // The report the run wrote here (the runner read its own folder, left empty by the later --report).
  return { run: { ...run, report }, dir, report, html, url: pathToFileURL(file).href };
}

let conformant: Written;
let failing: Written;
let browser: Browser;
let context: BrowserContext;
/** Every request the pages made, and those that were not the report's own file. */
const requested: string[] = [];
const blocked: string[] = [];
const consoleErrors: string[] = [];

beforeAll(async () => {
  const target = await startFaultyTarget(hostile);
  try {
    const hints = embeddedHints(target.sim);
    [conformant, failing] = await Promise.all([
      // The embedded simulator's whole run, strict: also the proof that it fails nothing. The built
      // CLI in its own process, as a user runs it with no --target: the package's one run of the
      // embedded default in plain Node (every other spawned run names a URL). Its scenarios run in
      // a worker thread of that process, beside the other run's in this one: both cores busy.
      written(runCli, ["--allow-writes", "--allow-burst", "--strict"]),
      // Through the CLI's path in this process (its flag parser, then runConformance): what the
      // page shows is what the run wrote, in any process. Only the results on the operation whose
      // answer carries the defect, the markup and the key: what the planted-defect tests read (a
      // whole run fails the same one result; its 95 others are the conformant run's to show).
      written(
        runInProcess,
        [
          "--target",
          target.url,
          "--time-scale",
          "0.1",
          "--protection-profile-id",
          String(hints.protectionProfileId),
          "--gpu-flavor",
          String(hints.gpuFlavor),
          "--only",
          `*.${QUOTA_REQUESTS.operation.operationId}`,
        ],
        { GCORE_API_KEY: target.sim.apiKey, GCORE_RESELLER_API_KEY: target.sim.resellerApiKey },
      ),
    ]);
  } finally {
    await target.close();
  }
  browser = await sharedChromium();
  context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
  context.setDefaultTimeout(60_000);
  // Offline: anything but a file is aborted, and noted.
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("file:")) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  context.on("request", (request) => {
    requested.push(request.url());
  });
  context.on("page", (page) => {
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  });
}, 300_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  for (const w of [conformant, failing]) if (w) rmSync(w.dir, { recursive: true, force: true });
});

async function open(w: Written, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(w.url);
  return page;
}

/**
 * A report's page at the default width, opened once for the tests that only read it (nothing here
 * clicks or types): each load of the whole run's page cost about a second of Chromium's CPU.
 * Closed with the context.
 */
const opened = new Map<Written, Promise<Page>>();
function pageOf(w: Written): Promise<Page> {
  let page = opened.get(w);
  if (!page) {
    page = open(w);
    opened.set(w, page);
  }
  return page;
}

/** The results by id, in report order (a check may report one id more than once). */
function byId(report: Report, status?: ScenarioStatus): Map<string, Report["scenarios"]> {
  const map = new Map<string, Report["scenarios"]>();
  for (const result of report.scenarios)
    if (!status || result.status === status) map.set(result.id, [...(map.get(result.id) ?? []), result]);
  return map;
}

const text = async (page: Page, selector: string) => (await page.locator(selector).textContent()) ?? "";

/**
 * The operations grid, the latency rows and each result's chips and articles, read in one
 * evaluation: one round trip to the browser per result and operation cost 20 s on a loaded machine.
 */
function operationsShown(page: Page) {
  return page.evaluate(() => {
    const all = (selector: string) => [...document.querySelectorAll(selector)];
    const tally = (selector: string, attribute: string) => {
      const found: Record<string, (string | null)[]> = {};
      for (const element of all(selector)) {
        const key = element.getAttribute(attribute) ?? "";
        found[key] = [...(found[key] ?? []), element.getAttribute("data-status")];
      }
      return found;
    };
    return {
      rows: all("#operations tr.operation").map((row) => ({
        operation: row.getAttribute("data-operation"),
        text: row.textContent ?? "",
      })),
      latency: all("#latency tr[data-operation]").map((row) => row.getAttribute("data-operation")),
      chips: tally("#operations a.chip[data-result]", "data-result"),
      articles: tally("#results article.result[data-result]", "data-result"),
    };
  });
}

describe("report.html in Chromium: the conformant run", () => {
  it("a conformant run: the verdict and its counts at the top", async () => {
    const out = conformant.run.stdout + conformant.run.stderr;
    // No false positive on the embedded simulator, writes, burst and --strict included. Nothing
    // skipped but what the machine's speed decides: a burst too slow to exceed the rate says so.
    expect(failedIds(conformant.run), out).toEqual([]);
    expect(conformant.run.code, out).toBe(0);
    for (const s of conformant.report.scenarios.filter((r) => r.status === "skipped")) {
      expect(s.id, out).toMatch(/^rate-limit\./);
      expect(s.reason, out).toMatch(/never exceeded|no 429/);
    }
    const page = await pageOf(conformant);
    expect(await text(page, "#verdict strong")).toBe("CONFORMANT");
    for (const status of STATUSES)
      expect(await text(page, `#verdict [data-count="${status}"]`)).toBe(
        `${conformant.report.summary[status]} ${status}`,
      );
    expect(await page.title()).toMatch(/^CONFORMANT: /);
  }, 120_000);

  it("lists every operation of the spec with the result of every check on it", async () => {
    const shown = await operationsShown(await pageOf(conformant));
    expect(shown.rows).toHaveLength(model.operations.length);
    for (const op of model.operations) {
      const rows = shown.rows.filter((row) => row.operation === op.operationId);
      expect(rows.length, op.operationId).toBe(1);
      expect(rows[0]?.text).toContain(`${op.method.toUpperCase()} ${op.path}`);
      expect(shown.latency.filter((id) => id === op.operationId).length, op.operationId).toBe(1);
    }
    for (const [id, results] of byId(conformant.report)) {
      const statuses = shown.chips[id] ?? [];
      expect(statuses.length, id).toBeGreaterThan(0);
      expect(new Set(statuses), id).toEqual(new Set(results.map((r) => r.status)));
      expect(shown.articles[id]?.length ?? 0, id).toBe(results.length);
    }
  }, 120_000);

  it("shows latency per operation where the exchanges were timed, and says so where they were not", async () => {
    const page = await pageOf(conformant);
    const timed = conformant.report.scenarios.some((s) =>
      s.evidence.some((e) => factsOf(e).durationMs !== undefined),
    );
    if (timed) {
      expect(await page.locator("#latency-not-recorded").count()).toBe(0);
      const medians = await page.locator('#latency td[data-label="Median"]').allTextContents();
      expect(medians.filter((m) => /^\d+ ms$/.test(m)).length).toBeGreaterThan(0);
    } else expect(await page.locator("#latency-not-recorded").count()).toBe(1);
  }, 120_000);

  it("lists the burst's answers at the rate limit with the Retry-After they carried and the waits after them", async () => {
    const page = await pageOf(conformant);
    // A 429 a result cites from another is listed where it was met, not again.
    const hit = conformant.report.scenarios.filter((s) =>
      s.evidence.some((e) => e.status === limited && !factsOf(e).cited),
    );
    expect(hit.length, "the burst met the rate limit").toBeGreaterThan(0);
    for (const s of hit) {
      const row = page.locator(`#timeline tr.wait[data-result="${s.id}"]`);
      expect(await row.count(), s.id).toBe(1);
      const advised = s.evidence.find((e) => e.status === limited)?.responseHeaders?.["retry-after"];
      expect(advised, `${s.id}: the 429's Retry-After is in report.json`).toMatch(/^\d+$/);
      expect(await row.locator('td[data-label="Retry-After"]').textContent(), s.id).toContain(
        String(advised),
      );
    }
    expect(await page.locator("#timeline tr.slow").count()).toBeGreaterThan(0);
  }, 120_000);

  it("reads on a phone: no part of the page is wider than the screen", async () => {
    const page = await open(conformant, { width: 390, height: 844 });
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      screen: document.documentElement.clientWidth,
    }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    // The operations × checks grid scrolls in its own box.
    const grid = await page.locator("#operations .grid").evaluate((box) => box.scrollWidth > box.clientWidth);
    expect(grid).toBe(true);
    await page.close();
  }, 120_000);
});

describe("report.html in Chromium: the planted defect, and what both pages asked for", () => {
  it("a planted defect: NOT CONFORMANT, each failure with its request and the answer, escaped", async () => {
    expect(failing.run.code, failing.run.stdout + failing.run.stderr).toBe(1);
    const failed = failing.report.scenarios.filter((s) => s.status === "failed");
    expect(failed.map((s) => s.id)).toEqual(expect.arrayContaining(hostile.fails));
    const page = await pageOf(failing);
    expect(await text(page, "#verdict strong")).toBe("NOT CONFORMANT");
    for (const [id, results] of byId(failing.report, "failed")) {
      const articles = page.locator(`#deviations article.deviation[data-result="${id}"]`);
      expect(await articles.count(), id).toBe(results.length);
      for (const [i, result] of results.entries()) {
        const article = articles.nth(i);
        expect(await article.locator("details.exchange").count(), id).toBe(result.evidence.length);
        expect(result.evidence.length, id).toBeGreaterThan(0);
        const shown = (await article.textContent()) ?? "";
        for (const e of result.evidence) {
          expect(shown).toContain(`${e.method} ${e.path}`);
          expect(shown).toContain(e.excerpt);
        }
        // Repeated lines and statuses said once with a count (report.json keeps them as written).
        expect(shown).toContain(summariseReason(result.reason ?? ""));
      }
    }
    // The hostile answer is shown as text: the markup is there to read, and it did nothing.
    expect(await text(page, "#deviations")).toContain(INJECTED);
    expect(await page.evaluate(() => Reflect.get(window, "__injected"))).toBeUndefined();
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.locator("script").evaluateAll((all) => all.map((s) => s.textContent))).toEqual([
      FILTER_SCRIPT,
    ]);
    expect(await page.locator("#operations tr.operation").count()).toBe(model.operations.length);
  }, 120_000);

  it("shows no form of either key, and the key the server echoed is shown redacted", async () => {
    for (const w of [conformant, failing]) expect(leaksKey(w.html), w.url).toBe(false);
    const page = await pageOf(failing);
    expect(leaksKey(await page.content())).toBe(false);
    expect(leaksKey(await text(page, "body"))).toBe(false);
    expect(await text(page, "#deviations")).toContain(`${INJECTED} ***`);
  }, 120_000);

  it("made no request but for the report's own file, and logged no error", () => {
    expect(blocked).toEqual([]);
    expect([...new Set(requested)].sort()).toEqual([conformant.url, failing.url].sort());
    expect(consoleErrors).toEqual([]);
  });
});

/** A page without its own filter script, which must be there, once. */
function withoutOwnScript(html: string): string {
  const own = `<script>${FILTER_SCRIPT}</script>`;
  expect(html.split(own)).toHaveLength(2);
  return html.replace(own, "");
}

describe("toHtml", () => {
  const report: Report = {
    target: 'https://api.example.com/"><script>alert(1)</script>',
    startedAt: new Date(0).toISOString(),
    durationMs: 1234,
    options: { strict: false, only: ["<b>x</b>"] },
    summary: { passed: 0, failed: 1, warned: 0, skipped: 0 },
    scenarios: [
      {
        id: "errors.unknown-task-404",
        title: "An unknown task is a 404",
        severity: "must",
        status: "failed",
        operation: "getTask",
        reason: "answered 200 <img src=x onerror=alert(1)>",
        evidence: [
          {
            method: "GET",
            path: "/cloud/v1/tasks/<x>",
            status: 200,
            excerpt: `{"echo":"Authorization: Bearer abc.def-secret","again":"${DEFAULT_TOKENS.client}"}`,
          },
        ],
        durationMs: 12,
      },
    ],
    createdResources: [],
  };

  it("escapes every string from the run and redacts keys and Authorization values", () => {
    const html = toHtml(report, { model, redact: createRedactor(KEYS) });
    expect(withoutOwnScript(html)).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("abc.def-secret");
    expect(html).toContain("Authorization: Bearer ***");
    expect(leaksKey(html)).toBe(false);
    // The page itself may load and run nothing.
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-`);
    expect(html.split("<script>")).toHaveLength(2);
  });

  it("a fuzz run: each finding with its phase, seed and curl reproducer, escaped, with the replay's verdicts", () => {
    const request = {
      operationId: "listTasks",
      method: "GET",
      path: "/cloud/v1/tasks",
      params: {},
      fromRun: [],
      query: [["task_type", "<script>x</script>"]] as [string, string][],
      auth: "client" as const,
    };
    const fuzzReport: Report = {
      ...report,
      fuzz: {
        seed: 42,
        phases: ["coverage", "fuzz"],
        maxExamples: 25,
        requests: 300,
        findings: [
          {
            id: "fuzz.no-server-error.listTasks",
            check: "fuzz.no-server-error",
            operationId: "listTasks",
            severity: "must",
            phase: "fuzz",
            seed: 42,
            problem: "GET /cloud/v1/tasks?task_type=<img src=x onerror=alert(1)>: answered 500",
            status: 500,
            request,
            curl: `curl -sS -i -X GET 'http://127.0.0.1:4020/cloud/v1/tasks?task_type=%3Cscript%3E' -H "Authorization: ${tokenPrefix}$GCORE_API_KEY" # ${DEFAULT_TOKENS.client}`,
          },
        ],
        replay: [{ id: "fuzz.no-server-error.listTasks", severity: "must", stillFails: true, status: 500 }],
      },
    };
    const html = toHtml(fuzzReport, { model, redact: createRedactor(KEYS) });
    expect(withoutOwnScript(html)).not.toMatch(/<script|<img/);
    expect(html).toContain('<section id="findings">');
    expect(html).toContain("Smallest request found in phase fuzz, seed 42; answered 500");
    expect(html).toContain(`-H &quot;Authorization: ${tokenPrefix}$GCORE_API_KEY&quot;`);
    expect(html).toContain("still fails (500)");
    expect(leaksKey(html)).toBe(false);
  });

  it("shows bidi overrides, isolates and other invisible or control characters as visible escapes", () => {
    const hostileReport: Report = {
      ...report,
      target: "https://api.example.com/\u202eexe.txt",
      scenarios: report.scenarios.map((s) => ({
        ...s,
        reason: "answered \u202egnp.exe\u2066x\u2069\x1b[2J\u200b\x00\x7f\x9b end",
        evidence: s.evidence.map((e) => ({ ...e, excerpt: `{"name":"\u202dabc\u202c\ufeff"}` })),
      })),
    };
    const html = toHtml(hostileReport, { model });
    expect(actingCharacters(html, "\n\t\r")).toEqual([]);
    expect(html).toContain("answered \\u202egnp.exe\\u2066x\\u2069\\x1b[2J\\u200b\\x00\\x7f\\x9b end");
    expect(html).toContain("\\u202dabc\\u202c\\ufeff");
    expect(html).toContain("https://api.example.com/\\u202eexe.txt");
  });

  it("holds the request body and both sides' headers to the same escaping, redaction and bounds", () => {
    const MB = "x".repeat(1_000_000);
    const hostileReport: Report = {
      ...report,
      scenarios: report.scenarios.map((s) => ({
        ...s,
        evidence: s.evidence.map((e) => ({
          ...e,
          excerpt: `${INJECTED}${MB}`,
          requestBody: `{"name":"${INJECTED}\u202e${DEFAULT_TOKENS.client}${MB}"}`,
          requestHeaders: {
            authorization: `${tokenPrefix}${DEFAULT_TOKENS.client}`,
            "x-api-key": "someone-elses-key",
            [`x-${INJECTED}`]: `\u202egnp.exe ${MB}`,
            ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-many-${i}`, MB])),
          },
          responseHeaders: {
            "retry-after": "1",
            "x-echo": `Authorization: Bearer abc.def-secret ${INJECTED}`,
            "set-cookie": "session=s3cr3t-cookie",
          },
        })),
      })),
    };
    const html = toHtml(hostileReport, { model, redact: createRedactor(KEYS) });
    const page = withoutOwnScript(html);
    expect(page).not.toMatch(/<script|<img/i);
    expect(page).toContain("&lt;script&gt;window.__injected");
    expect(actingCharacters(page, "\n\t\r")).toEqual([]);
    expect(page).toContain("\\u202egnp.exe");
    expect(leaksKey(page)).toBe(false);
    for (const secret of ["someone-elses-key", "abc.def-secret", "s3cr3t-cookie"])
      expect(page).not.toContain(secret);
    expect(page).toContain("<dt>retry-after</dt><dd>1</dd>");
    // Bounded as shown: four 1 MB strings and 200 headers of 1 MB make a page of a few dozen kB.
    expect(page.length).toBeLessThan(400_000);
    expect(page).toContain("characters in all)");
    expect(page).toContain("more headers not kept");
  });

  it("says repeats once with counts, lists the exchanges a failure is about first, and names another operation's", () => {
    const [quota, check] = model.operations.filter((o) => o.method === "post");
    if (!quota || !check) throw new Error("the spec has fewer than two POST operations");
    const pathOf = (o: typeof quota) => o.path.replace(/\{[^}]+\}/g, "1");
    const lines = Array.from(
      { length: 3 },
      () => `${check.method.toUpperCase()} ${pathOf(check)} answered 500`,
    );
    const statuses = [...Array(52).fill("500"), ...Array(248).fill("200")].join(", ");
    const html = toHtml(
      {
        ...report,
        scenarios: [
          {
            ...(report.scenarios[0] as Report["scenarios"][number]),
            operation: quota.operationId,
            reason: `the burst met ${statuses}\n${lines.join("\n")}`,
            evidence: [
              ...Array.from({ length: 4 }, () => ({
                method: quota.method.toUpperCase(),
                path: pathOf(quota),
                status: 200,
                excerpt: "{}",
              })),
              { method: check.method.toUpperCase(), path: pathOf(check), status: 500, excerpt: "{}" },
            ],
          },
        ],
      },
      { model },
    );
    expect(html).toContain("the burst met 200 ×248, 500 ×52");
    expect(html).toContain(`${lines[0]} (×3)`);
    expect(html).not.toContain("500, 500, 500");
    const deviation = html.slice(
      html.indexOf('<section id="deviations">'),
      html.indexOf('<section id="operations">'),
    );
    // The 500 first, marked and open; the four 200s behind their count.
    expect(deviation).toMatch(/<details class="exchange flagged" open><summary><span class="n">#5<\/span>/);
    expect(deviation).toContain("4 other exchanges (200 ×4)");
    expect(deviation).toContain(`Evidence from another operation: <code>${check.operationId}</code>`);
    expect(deviation).toContain(`from <code>${check.operationId}</code>`);
  });

  it("lists an operation no result touched, and says when latency is not recorded", () => {
    const html = toHtml(report, { model });
    for (const op of model.operations) expect(html).toContain(`data-operation="${op.operationId}"`);
    expect(html).toContain('class="operation untouched" id="op-listRegions"');
    expect(html).toContain('id="latency-not-recorded"');
    expect(html).toContain("NOT CONFORMANT");
  });

  it("lets an operation's name wrap in the grid between its words only, never inside one", () => {
    const html = toHtml(report, { model });
    for (const op of model.operations) {
      const row = html.match(
        new RegExp(`data-operation="${op.operationId}"><th scope="row"><code>(.*?)</code>`),
      );
      expect(row?.[1]?.replaceAll("<wbr>", "")).toBe(op.operationId);
      const words = op.operationId.split(/(?=[A-Z])/);
      expect(row?.[1]?.split("<wbr>")).toEqual(words);
    }
  });
});
