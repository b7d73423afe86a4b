// report.html's layout and filters in Chromium, at a desktop's 1280 px and a phone's 390 px, in the
// light and the dark colour scheme: what only a browser can tell (how wide the page lays out, what a
// scroll box shows, whether the page's own script runs under its Content-Security-Policy). The
// reports are fixtures rendered in-process from the spec model and the rule registry (passing,
// failing in its last rule's cell, mostly skipped): no run of the suite is needed.
// Checks: the page never scrolls sideways; every column of the operations × checks grid can be
// scrolled into its box; a failed cell shows without scrolling sideways; the filters filter; a
// mostly skipped run says so in its verdict.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { loadModel } from "@platform-api/spec";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarize } from "../src/judge/build-report.js";
import { plannedResults } from "../src/judge/judge.js";
import { toHtml } from "../src/report/html.js";
import type { Evidence } from "../src/shared/context.js";
import type { Report, ScenarioResult } from "../src/shared/results.js";
import { sharedChromium } from "./chromium.js";

const model = loadModel();
const { exceededStatus } = model.conventions.requestRate;
const WIDTHS = [1280, 390] as const;
const SCHEMES = ["light", "dark"] as const;

/** One exchange of an operation of the spec, its path parameters filled. */
function exchangeOf(operationId: string, status: number, at: number): Evidence {
  const operation = model.operations.find((o) => o.operationId === operationId);
  if (!operation) throw new Error(`${operationId} is no operation of the spec`);
  const path = operation.path.replace(/\{[^}]+\}/g, "1");
  return {
    method: operation.method.toUpperCase(),
    path,
    status,
    excerpt: status === exceededStatus ? '{"message":"slow down"}' : '{"count":0,"results":[]}',
    operationId,
    contentType: "application/json",
    at,
    durationMs: 5 + (at % 40),
    requestHeaders: { accept: "application/json", authorization: "***" },
    ...(operation.requestBody ? { requestBody: '{"name":"x"}' } : {}),
    responseHeaders: {
      "content-type": "application/json",
      ...(status === exceededStatus ? { "retry-after": "1" } : {}),
    },
  };
}

/** Every result the rule registry plans for the spec, each with an exchange of its operation. */
function results(statusOf: (index: number, all: number) => ScenarioResult["status"]): ScenarioResult[] {
  const planned = plannedResults();
  return planned.map(({ id, rule, operation }, i) => {
    const status = statusOf(i, planned.length);
    const answer = status === "failed" ? 500 : id.startsWith("rate-limit.") ? exceededStatus : 200;
    return {
      id,
      title: rule.title(operation),
      severity: rule.severity,
      status,
      operation: operation.operationId,
      ...(rule.perOperation ? { check: rule.id } : {}),
      reason:
        status === "failed"
          ? `${operation.method.toUpperCase()} ${exchangeOf(operation.operationId, 500, 0).path} answered 500`
          : status === "skipped"
            ? i % 3 === 0
              ? "needs state; the target keeps none"
              : "needs a server that enforces the rate limit"
            : null,
      evidence: status === "skipped" ? [] : [exchangeOf(operation.operationId, answer, 1_000_000 + i * 37)],
      durationMs: 10,
    };
  });
}

function reportOf(scenarios: ScenarioResult[]): Report {
  return {
    target: "http://127.0.0.1:4020",
    startedAt: new Date(1_000_000).toISOString(),
    durationMs: 5000,
    options: { allowWrites: true },
    summary: summarize(scenarios),
    scenarios,
    createdResources: [],
  };
}

// The last planned result is the one the grid lays out last (its rule's group comes last, its
// operation late in the spec): the cell a reader would have to scroll to.
const FIXTURES = {
  passing: reportOf(results(() => "passed")),
  failing: reportOf(results((i, all) => (i === all - 1 ? "failed" : "passed"))),
  skipped: reportOf(results((i) => (i % 4 === 0 ? "passed" : "skipped"))),
};
type Fixture = keyof typeof FIXTURES;

let dir: string;
let browser: Browser;
let context: BrowserContext;
const pages = new Map<Fixture, Page>();
const problems: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "report-browser-"));
  for (const [name, report] of Object.entries(FIXTURES))
    writeFileSync(join(dir, `${name}.html`), toHtml(report, { model }));
  browser = await sharedChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(60_000);
  // Offline: anything but the report's own file is aborted, and noted.
  await context.route("**/*", (route) => {
    if (route.request().url().startsWith("file:")) return route.continue();
    problems.push(`requested ${route.request().url()}`);
    return route.abort();
  });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * The fixture's page in a colour scheme at a width. One page per fixture, loaded once, for both
 * schemes: the scheme is the media feature prefers-color-scheme, emulated on the page as a
 * context's colorScheme would emulate it (each load and renderer of a report this size cost about
 * half a CPU-second, twice over when each scheme had a context of its own).
 */
async function open(fixture: Fixture, scheme: (typeof SCHEMES)[number], width: number): Promise<Page> {
  let page = pages.get(fixture);
  if (!page) {
    page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`${fixture}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`${fixture}: ${e.message}`));
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(pathToFileURL(join(dir, `${fixture}.html`)).href);
    pages.set(fixture, page);
  }
  await page.emulateMedia({ colorScheme: scheme });
  await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  // Not vacuous: the page lays out in the scheme asked for.
  expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(
    scheme === "dark",
  );
  return page;
}

const each = SCHEMES.flatMap((scheme) => WIDTHS.map((width) => ({ scheme, width })));

describe("report.html at 1280 and 390 px, light and dark", () => {
  it.each(each)(
    "no page scrolls sideways ($width px, $scheme)",
    async ({ scheme, width }) => {
      for (const fixture of Object.keys(FIXTURES) as Fixture[]) {
        const page = await open(fixture, scheme, width);
        const sizes = await page.evaluate(() => ({
          page: document.documentElement.scrollWidth,
          screen: window.innerWidth,
        }));
        expect(sizes.page, `${fixture}: the page is wider than the screen`).toBeLessThanOrEqual(sizes.screen);
      }
    },
    120_000,
  );

  it.each(each)(
    "every column of the grid scrolls into its box ($width px, $scheme)",
    async ({ scheme, width }) => {
      const page = await open("failing", scheme, width);
      const columns = await page.locator("#operations thead th").count();
      expect(columns).toBeGreaterThan(2);
      for (let i = 0; i < columns; i++) {
        const seen = await page.evaluate((index) => {
          const grid =
            document.querySelector("#operations .grid") ?? document.querySelector("#operations .scroll");
          const th = document.querySelectorAll("#operations thead th")[index];
          const sticky = document.querySelector("#operations tbody th");
          if (!grid || !th) return "no grid or no column";
          th.scrollIntoView({ block: "nearest", inline: "nearest" });
          const box = grid.getBoundingClientRect();
          const cell = th.getBoundingClientRect();
          // A column other than the first must not hide under the operations column held in view.
          const from = index === 0 || !sticky ? box.left : sticky.getBoundingClientRect().right;
          if (window.scrollX !== 0) return `the page scrolled sideways by ${window.scrollX} px`;
          if (cell.width === 0) return "the column is not shown";
          if (cell.left < from - 1 || cell.right > box.right + 1)
            return `column ${index} spans ${Math.round(cell.left)}–${Math.round(cell.right)} px, the box shows ${Math.round(from)}–${Math.round(box.right)} px`;
          return "seen";
        }, i);
        expect(seen, `column ${i} at ${width} px`).toBe("seen");
      }
    },
    120_000,
  );

  it.each(each)(
    "a failed cell shows without scrolling sideways ($width px, $scheme)",
    async ({ scheme, width }) => {
      const page = await open("failing", scheme, width);
      const seen = await page.evaluate(() => {
        const grid =
          document.querySelector("#operations .grid") ?? document.querySelector("#operations .scroll");
        const chip = document.querySelector("#operations a.chip.failed");
        if (!grid || !chip) return "no grid or no failed cell";
        grid.scrollLeft = 0;
        grid.scrollTop = 0;
        // Down to the grid, as a reader following the page's link to it; never sideways.
        window.scrollTo(0, grid.getBoundingClientRect().top + window.scrollY);
        const cell = chip.getBoundingClientRect();
        const box = grid.getBoundingClientRect();
        const inside =
          cell.left >= Math.max(0, box.left) - 1 &&
          cell.right <= Math.min(window.innerWidth, box.right) + 1 &&
          cell.top >= Math.max(0, box.top) - 1 &&
          cell.bottom <= Math.min(window.innerHeight, box.bottom) + 1;
        return inside
          ? "seen"
          : `the failed cell is at ${Math.round(cell.left)}–${Math.round(cell.right)} × ${Math.round(cell.top)}–${Math.round(cell.bottom)}, the screen shows ${window.innerWidth} × ${window.innerHeight}`;
      });
      expect(seen).toBe("seen");
    },
    120_000,
  );

  it("filters by status, operation, check and words", async () => {
    const page = await open("failing", "light", 1280);
    const failed = FIXTURES.failing.scenarios.filter((r) => r.status === "failed");
    const [failure] = failed;
    if (!failure) throw new Error("the failing fixture has no failure");
    const form = page.locator("#filters");
    // Shown by the page's script: it ran under the page's policy.
    await expect.poll(() => form.isVisible(), { timeout: 60_000 }).toBe(true);
    const shown = () =>
      page
        .locator("#results article.result")
        .evaluateAll((all) =>
          all
            .filter((a) => (a as HTMLElement).offsetParent !== null)
            .map((a) => a.getAttribute("data-result")),
        );
    expect(await shown()).toHaveLength(FIXTURES.failing.scenarios.length);
    await form.locator('input[value="passed"]').uncheck();
    expect(await shown()).toEqual(failed.map((r) => r.id));
    // A section's heading counts what the filter shows of it, not what the run had.
    const deviations = () => page.locator("#deviations h2").textContent();
    const deviating = FIXTURES.failing.scenarios.filter(
      (r) => r.status === "failed" || r.status === "warned",
    );
    expect(await deviations()).toBe(`Deviations (${deviating.length})`);
    await form.locator('input[value="failed"]').uncheck();
    expect(await deviations()).toBe(`Deviations (${deviating.length - failed.length})`);
    await form.locator('input[value="failed"]').check();
    await form.locator('input[value="passed"]').check();
    await form.locator('select[name="operation"]').selectOption(failure.operation);
    const ofOperation = FIXTURES.failing.scenarios.filter((r) => r.operation === failure.operation);
    expect(await shown()).toHaveLength(ofOperation.length);
    const rows = await page
      .locator("#operations tr.operation")
      .evaluateAll((all) => all.filter((r) => (r as HTMLElement).offsetParent !== null).length);
    expect(rows).toBe(1);
    const latency = await page
      .locator("#latency tr[data-operation]")
      .evaluateAll((all) => all.filter((r) => (r as HTMLElement).offsetParent !== null).length);
    expect(latency).toBe(1);
    await form.locator('select[name="operation"]').selectOption("");
    await form
      .locator('select[name="check"]')
      .selectOption(failure.check ?? failure.id.split(".").slice(0, -1).join("."));
    expect((await shown()).length).toBeGreaterThan(0);
    expect(await shown()).toContain(failure.id);
    await form.locator('select[name="check"]').selectOption("");
    await form.locator('input[name="search"]').fill(failure.id);
    expect(await shown()).toEqual([failure.id]);
    expect(await page.locator("#filter-count").textContent()).toBe(
      `1 of ${FIXTURES.failing.scenarios.length} results shown`,
    );
    await form.locator('input[name="search"]').fill("");
  }, 120_000);

  it("with script off, shows every result, no filter, and says why", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto(pathToFileURL(join(dir, "failing.html")).href);
      expect(await page.locator("#filters").isVisible()).toBe(false);
      expect(await page.locator("#filters-need-script").isVisible()).toBe(true);
      const visible = await page
        .locator("#results .result")
        .evaluateAll((all) => all.filter((a) => (a as HTMLElement).offsetParent !== null).length);
      expect(visible).toBe(FIXTURES.failing.scenarios.length);
    } finally {
      await context.close();
    }
  }, 120_000);

  it.each(SCHEMES)(
    "a mostly skipped run says so in its verdict, with the skip reasons counted (%s)",
    async (scheme) => {
      const page = await open("skipped", scheme, 390);
      const { summary } = FIXTURES.skipped;
      const ran = summary.passed + summary.failed + summary.warned;
      const total = ran + summary.skipped;
      const qualifier = page.locator("#verdict #mostly-skipped");
      expect(await qualifier.isVisible()).toBe(true);
      expect(await qualifier.textContent()).toContain(`${ran} of ${total}`);
      const reasons = await page.locator("#verdict .skips li").allTextContents();
      const counts = new Map<string, number>();
      for (const r of FIXTURES.skipped.scenarios)
        if (r.status === "skipped") counts.set(r.reason ?? "", (counts.get(r.reason ?? "") ?? 0) + 1);
      for (const [reason, n] of counts) expect(reasons).toContain(`${n} × ${reason}`);
      // Visible: not folded away.
      expect(await page.locator("#verdict .skips li").first().isVisible()).toBe(true);
    },
    120_000,
  );

  it("loaded nothing, and logged no error (the script ran under the policy)", () => {
    expect(problems).toEqual([]);
  });
});
