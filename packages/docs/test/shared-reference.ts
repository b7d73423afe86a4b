// The site served once per test worker as `pnpm docs:serve` serves it (the simulator beside it, on
// 127.0.0.1, named by console-target.json), in one watched browser context, with the reference
// rendered once in it at a desktop width, for the files that read, open and call from what Redoc
// renders (browser.test.ts, browser-notes.test.ts, browser-console.test.ts). Rendering the whole
// description costs Chromium about three seconds of CPU, and a context almost one, on the 2-core
// machine the whole `pnpm test` shares. The files run in any order and each may find the reference
// as another left it: a test opens only what is closed (Redoc marks an opened field's row
// "expanded", a panel's <details> is open); what else one changes (a tab chosen, the scroll, a
// panel's answer) the others do not read. The server, the simulator and the context live as long as
// the worker, like its browser (shared-browser.ts), and go with the process.
import type { Simulator } from "@platform-api/simulator";
import type { BrowserContext, Page } from "playwright-core";
import type { DocsServer } from "../src/serve.js";
import { serveWithConsole } from "../src/serve-console.js";
import { builtSite } from "./built-site.js";
import { sharedBrowser } from "./shared-browser.js";

/** Generous, never a measure of speed: rendering the reference takes Chromium seconds of CPU. */
const TIMEOUT = 60_000;

export interface WatchedSite {
  server: DocsServer;
  /** The simulator the reference's Try it console calls, as docs:serve starts it. */
  simulator: Simulator;
  context: BrowserContext;
  /** Every page's console errors and uncaught errors, but the policy refusals of `provoking` pages and a call's (see `calling`). */
  consoleErrors: string[];
  /** Every request to another origin than the site's, but a call's to the simulator (see `calling`). */
  foreignRequests: string[];
  /** Every request's address and every console line ("type: text"), from the first page on. */
  requestedUrls: string[];
  consoleTexts: string[];
  /** Pages where a test provokes the Content-Security-Policy's refusals on purpose, and checks them itself. */
  provoking: WeakSet<Page>;
  /**
   * While a console call is under way (`count` above 0, browser-console.test.ts's `send`), its
   * requests to the simulator and the console errors of the pages go here, for that file to check;
   * at any other time a request to the simulator is a foreign request and an error is an error.
   */
  calling: { count: number; requests: string[]; errors: string[] };
  /** The reference, rendered once; tests that change it say how they leave it. */
  reference(): Promise<Page>;
}

let starting: Promise<WatchedSite> | undefined;

/** The worker's watched site, started by the first file that asks. */
export function watchedSite(): Promise<WatchedSite> {
  starting ??= start();
  return starting;
}

async function start(): Promise<WatchedSite> {
  const served = await serveWithConsole({ port: 0, dir: builtSite() });
  const { docs: server, simulator } = served;
  if (!simulator) throw new Error("docs:serve started no simulator");
  const context = await (await sharedBrowser()).newContext({ viewport: { width: 1366, height: 860 } });
  context.setDefaultTimeout(TIMEOUT);
  context.setDefaultNavigationTimeout(TIMEOUT);
  let rendering: Promise<Page> | undefined;
  const site: WatchedSite = {
    server,
    simulator,
    context,
    consoleErrors: [],
    foreignRequests: [],
    requestedUrls: [],
    consoleTexts: [],
    provoking: new WeakSet(),
    calling: { count: 0, requests: [], errors: [] },
    reference: () => {
      rendering ??= (async () => {
        const page = await context.newPage();
        await page.goto(`${server.url}/reference/index.html`);
        await page.locator(".menu-content").waitFor();
        await page.locator(".redoc-json").first().waitFor({ state: "attached" });
        return page;
      })();
      return rendering;
    },
  };
  const origin = new URL(server.url).origin;
  const simulatorOrigin = new URL(simulator.url).origin;
  context.on("request", (request) => {
    const url = request.url();
    site.requestedUrls.push(url);
    if (url.startsWith("data:")) return;
    const to = new URL(url).origin;
    if (to === origin) return;
    if (to === simulatorOrigin && site.calling.count > 0)
      site.calling.requests.push(`${request.method()} ${url}`);
    else site.foreignRequests.push(url);
  });
  const error = (line: string) =>
    (site.calling.count > 0 ? site.calling.errors : site.consoleErrors).push(line);
  context.on("page", (page) => {
    page.on("console", (message) => {
      site.consoleTexts.push(`${message.type()}: ${message.text()}`);
      if (site.provoking.has(page) && message.text().includes("Content Security Policy")) return;
      if (message.type() === "error") error(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (thrown) => {
      site.consoleTexts.push(`pageerror: ${thrown.message}`);
      error(`${page.url()}: ${thrown.message}`);
    });
  });
  return site;
}
