// The site served once per test worker, in one watched browser context, with the reference rendered
// once in it at a desktop width, for the files that read and open what Redoc renders
// (browser.test.ts, browser-notes.test.ts). Rendering the whole description costs Chromium about
// three seconds of CPU, and a context almost one, on the 2-core machine the whole `pnpm test`
// shares. The files run in either order and each may find the reference as the other left it: a
// test opens only what is closed (Redoc marks an opened field's row "expanded"); what else one
// changes (a tab chosen, the scroll) the other does not read. The server and the context live as
// long as the worker, like its browser (shared-browser.ts): the server listens on 127.0.0.1 and goes
// with the process.
import type { BrowserContext, Page } from "playwright-core";
import { type DocsServer, serveDocs } from "../src/serve.js";
import { builtSite } from "./built-site.js";
import { sharedBrowser } from "./shared-browser.js";

/** Generous, never a measure of speed: rendering the reference takes Chromium seconds of CPU. */
const TIMEOUT = 60_000;

export interface WatchedSite {
  server: DocsServer;
  context: BrowserContext;
  /** Every page's console errors and uncaught errors, but the policy refusals of `provoking` pages. */
  consoleErrors: string[];
  /** Every request to another origin than the site's. */
  foreignRequests: string[];
  /** Pages where a test provokes the Content-Security-Policy's refusals on purpose, and checks them itself. */
  provoking: WeakSet<Page>;
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
  const server = await serveDocs({ port: 0, dir: builtSite() });
  const context = await (await sharedBrowser()).newContext({ viewport: { width: 1366, height: 860 } });
  context.setDefaultTimeout(TIMEOUT);
  context.setDefaultNavigationTimeout(TIMEOUT);
  const site: WatchedSite = {
    server,
    context,
    consoleErrors: [],
    foreignRequests: [],
    provoking: new WeakSet(),
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
  let rendering: Promise<Page> | undefined;
  const origin = new URL(server.url).origin;
  context.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:")) return;
    if (new URL(url).origin !== origin) site.foreignRequests.push(url);
  });
  context.on("page", (page) => {
    page.on("console", (message) => {
      if (site.provoking.has(page) && message.text().includes("Content Security Policy")) return;
      if (message.type() === "error") site.consoleErrors.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => site.consoleErrors.push(`${page.url()}: ${error.message}`));
  });
  return site;
}
