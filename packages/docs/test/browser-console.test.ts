// The reference's "Try it" console in a real browser, served as `pnpm docs:serve` serves it: the
// site and the simulator beside it on 127.0.0.1 (src/serve-console.ts). Only a browser proves
// this: the call is a page's `fetch` to another origin, which Chromium lets through only after the
// simulator's CORS preflight and under the reference page's Content-Security-Policy; the panel is
// put into what Redoc renders; and where a token could be kept (the page's storage, cookies,
// IndexedDB, the address, the console) is the browser's. One page load (the reference renders
// every operation at once): a separate one from browser.test.ts's, whose page must make no request
// to another origin while this one's purpose is to make them.

import { loadBundle, loadModel, tokenScheme } from "@platform-api/spec";
import type { BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations } from "../src/operations.js";
import { operationAnchor } from "../src/reference.js";
import { type ServedWithConsole, serveWithConsole } from "../src/serve-console.js";
import { builtSite } from "./built-site.js";
import { sharedBrowser } from "./shared-browser.js";

const operations = listOperations(loadBundle());
const byId = (operationId: string) => {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
};
/** A token the reader types: it must end up nowhere but the header of the call. */
const TYPED_TOKEN = `typed-by-the-reader-${process.pid}-${Date.now()}`;

let served: ServedWithConsole;
let context: BrowserContext;
let page: Page;
const consoleTexts: string[] = [];
const requestedUrls: string[] = [];

beforeAll(async () => {
  served = await serveWithConsole({ port: 0, dir: builtSite() });
  context = await (await sharedBrowser()).newContext({ viewport: { width: 1280, height: 860 } });
  // Generous, never a measure of speed: rendering the reference takes Chromium seconds of CPU.
  context.setDefaultTimeout(60_000);
  context.on("request", (request) => requestedUrls.push(request.url()));
  page = await context.newPage();
  page.on("console", (message) => consoleTexts.push(`${message.type()}: ${message.text()}`));
  page.on("pageerror", (error) => consoleTexts.push(`pageerror: ${error.message}`));
  await page.goto(`${served.docs.url}/reference/index.html#${operationAnchor(byId("getCurrentClient"))}`);
}, 120_000);

afterAll(async () => {
  // The browser is the worker's (shared-browser.ts).
  await context?.close();
  await served?.close();
});

/** An operation's panel, opened (its fields are made when first opened). */
async function panel(operationId: string): Promise<Locator> {
  const section = page.locator(`[data-section-id="${operationAnchor(byId(operationId))}"]`);
  const details = section.locator("details.try-it");
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open)))
    await details.locator("summary").click();
  await details.locator(".try-it-panel").waitFor();
  return details;
}

async function send(details: Locator): Promise<{ status: string; body: string }> {
  // The click clears the previous answer before the call goes out (assets/console.js), so the
  // body waited for is this call's.
  await details.getByRole("button", { name: /^Send / }).click();
  const body = details.locator(".try-it-body");
  await body.waitFor();
  const text = async (locator: Locator) => (await locator.textContent()) ?? "";
  // The status line is the panel's live region: what a screen reader announces.
  return { status: await text(details.getByRole("status")), body: await text(body) };
}

describe("the reference's Try it console, against the simulator docs:serve starts", () => {
  it("calls an operation with the simulator's token and shows 200 and the body", async () => {
    const details = await panel("getCurrentClient");
    expect(await details.getByLabel("Base URL").inputValue()).toBe(served.simulator?.url);
    const answer = await send(details);
    expect(answer.status).toBe("200 OK");
    const direct = await fetch(`${served.simulator?.url}${byId("getCurrentClient").path}`, {
      headers: {
        Authorization: `${tokenScheme(loadModel(), "APIKey").tokenPrefix}${served.simulator?.apiKey}`,
      },
    });
    expect(JSON.parse(answer.body)).toEqual(await direct.json());
    // The answer's headers, readable across origins: the simulator's own mark among them.
    expect(await details.locator(".try-it-headers").textContent()).toMatch(/^x-platform-api-simulator: /m);
  });

  it("sends a reseller operation with the reseller token its security scheme names", async () => {
    const details = await panel("listQuotaLimitRequests");
    expect(await details.getByLabel(/Reseller admin token/).inputValue()).toBe(
      served.simulator?.resellerApiKey,
    );
    expect((await send(details)).status).toBe("200 OK");
  });

  it("shows a refusal: a token the reader typed that the simulator does not know is a 401", async () => {
    const details = await panel("getCurrentClient");
    await details.getByLabel(/^API token/).fill(TYPED_TOKEN);
    const answer = await send(details);
    expect(answer.status).toBe("401 Unauthorized");
    expect(JSON.parse(answer.body)).toHaveProperty("message");
  });

  it("keeps the typed token in the page's memory only: no storage, cookie, database, address or log", async () => {
    const kept = await page.evaluate(async () => ({
      local: Object.entries(localStorage),
      session: Object.entries(sessionStorage),
      cookie: document.cookie,
      databases: (await indexedDB.databases()).map((d) => d.name),
      caches: await caches.keys(),
      address: window.location.href,
      history: JSON.stringify(window.history.state),
    }));
    expect(JSON.stringify(kept)).not.toContain(TYPED_TOKEN);
    expect(kept.databases).toEqual([]);
    expect(kept.cookie).toBe("");
    for (const token of [
      TYPED_TOKEN,
      served.simulator?.apiKey ?? "",
      served.simulator?.resellerApiKey ?? "",
    ]) {
      expect(requestedUrls.filter((url) => url.includes(token))).toEqual([]);
      expect(consoleTexts.filter((text) => text.includes(token))).toEqual([]);
    }
    // Chromium's own line for the refused call is the only error: the page's script wrote none.
    expect(consoleTexts.filter((text) => /^(error|pageerror):/.test(text))).toEqual([
      "error: Failed to load resource: the server responded with a status of 401 (Unauthorized)",
    ]);
  });
});
