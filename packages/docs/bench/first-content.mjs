// `pnpm bench`: how long the reader of a copied operation link waits for that operation, against a
// plain page. Chromium (the system's, as the browser tests use it) opens the reference at an
// operation's anchor and a plain page of text, both served by `docs:serve`'s server from a site
// built for this run, with compression (br, as Chromium asks) and without (Accept-Encoding:
// identity); each load in a new context, so nothing is cached. Printed: the median time to the
// operation's content visible (Redoc renders the whole description before it scrolls there), the
// plain page's first contentful paint, their ratio, and the bytes transferred.
//
// A benchmark, not a test: it asserts no timing. Exits non-zero only on a crash (an error, a page
// that never shows its content, the watchdog).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { loadBundle } from "@platform-api/spec";
import { chromium } from "playwright-core";
import { buildSite } from "../lib/build.js";
import { listOperations } from "../lib/operations.js";
import { operationAnchor } from "../lib/reference.js";
import { serveDocs } from "../lib/serve.js";
import { findChromium, HOW_TO_INSTALL } from "../scripts/chromium.mjs";

const ROUNDS = 5;
const DEADLINE_MS = 300_000;
/** Generous, never a measure: a load on a busy machine may take seconds. */
const LOAD_TIMEOUT_MS = 60_000;
const VIEWPORT = { width: 1280, height: 800 };

/**
 * The page's own clock (ms since its navigation started) at the first frame where the element
 * `id` is drawn within the viewport; set in the page before any of its scripts run.
 */
const watchVisible = (id) => {
  const check = () => {
    const element = document.getElementById(id);
    const box = element?.getBoundingClientRect();
    if (box && box.height > 0 && box.top < innerHeight && box.bottom > 0) {
      globalThis.benchVisibleAt = performance.now();
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
};

/** The plain page: text only, served as the site's pages are. */
const PLAIN = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Plain page</title>
<h1 id="content">A plain page</h1><p>Text and nothing else: what the browser draws when it has no work.</p></html>`;

/** One load of `url` in a fresh context: when `id` is drawn, its first contentful paint, bytes moved. */
async function load(browser, url, id, compressed) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    // Chromium always offers br and gzip; saying identity is how a page is fetched uncompressed.
    if (!compressed) await context.setExtraHTTPHeaders({ "accept-encoding": "identity" });
    const page = await context.newPage();
    await page.addInitScript(watchVisible, id);
    const sizes = [];
    const encodings = new Set();
    page.on("requestfinished", (request) => sizes.push(request.sizes()));
    page.on("response", (response) => encodings.add(response.headers()["content-encoding"] ?? "none"));
    await page.goto(url, { timeout: LOAD_TIMEOUT_MS });
    await page.waitForFunction(() => globalThis.benchVisibleAt !== undefined, null, {
      timeout: LOAD_TIMEOUT_MS,
    });
    const [visible, paint] = await page.evaluate(() => [
      globalThis.benchVisibleAt,
      performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
    ]);
    const moved = (await Promise.all(sizes)).reduce(
      (sum, s) => sum + s.responseBodySize + s.responseHeadersSize,
      0,
    );
    return { visible, paint, bytes: moved, encodings: [...encodings].sort().join(", ") };
  } finally {
    await context.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const ms = (value) => `${Math.round(value)} ms`;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const loadAverages = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** Every case's loads, interleaved round by round so a change of load on the machine hits all alike. */
async function measure(browser, cases) {
  const results = new Map(cases.map((c) => [c.name, []]));
  // One load of each first, not counted: Chromium's own first-use costs, the server's first compression.
  for (const c of cases) await load(browser, c.url, c.id, c.compressed);
  for (let round = 0; round < ROUNDS; round++)
    for (const c of cases) results.get(c.name)?.push(await load(browser, c.url, c.id, c.compressed));
  return results;
}

function report(cases, results) {
  const row = (name) => {
    const runs = results.get(name) ?? [];
    return {
      visible: median(runs.map((r) => r.visible)),
      paint: median(runs.map((r) => r.paint ?? Number.NaN)),
      bytes: median(runs.map((r) => r.bytes)),
      encodings: [...new Set(runs.map((r) => r.encodings))].join(" / "),
    };
  };
  for (const compressed of [true, false]) {
    const [reference, plain] = ["reference", "plain"].map((kind) =>
      row(cases.find((c) => c.kind === kind && c.compressed === compressed)?.name ?? ""),
    );
    if (!reference || !plain) continue;
    console.log(compressed ? "with compression (br):" : "without compression (Accept-Encoding: identity):");
    console.log(
      `  reference, operation visible: ${ms(reference.visible)} (its first contentful paint ${ms(reference.paint)}), ${kb(reference.bytes)} transferred (encodings: ${reference.encodings})`,
    );
    console.log(
      `  plain page, first contentful paint: ${ms(plain.paint)}, ${kb(plain.bytes)} transferred (encodings: ${plain.encodings})`,
    );
    console.log(
      `  ratio, operation visible / plain page's first paint: ${(reference.visible / plain.paint).toFixed(1)}×`,
    );
  }
}

async function main(closers) {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(`No Chromium found. ${HOW_TO_INSTALL}`);
  const dir = mkdtempSync(join(tmpdir(), "docs-bench-"));
  closers.push(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = loadBundle();
  buildSite(dir, bundle);
  writeFileSync(join(dir, "bench-plain.html"), PLAIN);
  // The description's last operation: the deepest in the reference, so Redoc lays out all above it.
  const operation = listOperations(bundle).at(-1);
  if (!operation) throw new Error("The description has no operation.");
  const anchor = operationAnchor(operation);
  const server = await serveDocs({ port: 0, dir });
  closers.push(() => server.close());
  const browser = await chromium.launch({ executablePath, headless: true, timeout: LOAD_TIMEOUT_MS });
  closers.push(() => browser.close());

  console.log(
    `machine: nproc ${availableParallelism()}, ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadAverages()} (1, 5, 15 min), Node ${process.version}, Chromium ${browser.version()}`,
  );
  console.log(
    `pages: ${server.url}/reference/index.html#${anchor} (${operation.operationId}) and a plain page; ${ROUNDS} loads each after one not counted, medians\n`,
  );
  const cases = [true, false].flatMap((compressed) => [
    {
      name: `reference ${compressed}`,
      kind: "reference",
      compressed,
      url: `${server.url}/reference/index.html#${anchor}`,
      id: anchor,
    },
    {
      name: `plain ${compressed}`,
      kind: "plain",
      compressed,
      url: `${server.url}/bench-plain.html`,
      id: "content",
    },
  ]);
  const results = await measure(browser, cases);
  report(cases, results);
  console.log(`\nload after: ${loadAverages()}`);
}

const closers = [];
const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${DEADLINE_MS / 1000} s, giving up`);
  process.exit(1);
}, DEADLINE_MS);
watchdog.unref();
try {
  await main(closers);
} catch (error) {
  console.error(`bench: ${error?.stack ?? error}`);
  process.exitCode = 1;
} finally {
  for (const close of closers.reverse())
    try {
      await close();
    } catch (error) {
      console.error(`bench: closing failed: ${error?.message ?? error}`);
      process.exitCode = 1;
    }
  clearTimeout(watchdog);
}
