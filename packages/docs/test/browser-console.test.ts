// The reference's "Try it" console in a real browser, served as `pnpm docs:serve` serves it: the
// site and the simulator beside it on 127.0.0.1 (src/serve-console.ts). Only a browser proves
// this: the call is a page's `fetch` to another origin, which Chromium lets through only after the
// simulator's CORS preflight and under the reference page's Content-Security-Policy; the panel is
// put into what Redoc renders; and where a token could be kept (the page's storage, cookies,
// IndexedDB, the address, the console) is the browser's. The worker's one rendered reference
// (shared-reference.ts), which browser.test.ts and browser-notes.test.ts read too: its watch
// counts a request to the simulator, and a console error, as this file's only while one of its
// calls is under way (`send`), and as a foreign request or an error at any other time.

import { loadBundle, loadModel, tokenScheme } from "@platform-api/spec";
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { listOperations } from "../src/operations.js";
import { operationAnchor } from "../src/reference.js";
import { type WatchedSite, watchedSite } from "./shared-reference.js";

const operations = listOperations(loadBundle());
const byId = (operationId: string) => {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
};
/** A token the reader types: it must end up nowhere but the header of the call. */
const TYPED_TOKEN = `typed-by-the-reader-${process.pid}-${Date.now()}`;

let site: WatchedSite;
let page: Page;

beforeAll(async () => {
  site = await watchedSite();
  page = await site.reference();
}, 120_000);

/** An operation's panel, opened (its fields are made when first opened). */
async function panel(operationId: string): Promise<Locator> {
  const section = page.locator(`[data-section-id="${operationAnchor(byId(operationId))}"]`);
  const details = section.locator("details.try-it");
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open)))
    await details.locator("summary").click();
  await details.locator(".try-it-panel").waitFor();
  return details;
}

/**
 * Sends the panel's call and reads its answer, inside the watch's call window (see `calling` in
 * shared-reference.ts). A refused call's window stays open until Chromium's console line for it has
 * come, so that line is counted as the call's, never as an error of another test.
 */
async function send(details: Locator, refused = false): Promise<{ status: string; body: string }> {
  site.calling.count++;
  try {
    const logged = refused && page.waitForEvent("console", (message) => message.type() === "error");
    // The click clears the previous answer before the call goes out (assets/console.js), so the
    // body waited for is this call's.
    await details.getByRole("button", { name: /^Send / }).click();
    const body = details.locator(".try-it-body");
    await body.waitFor();
    await logged;
    const text = async (locator: Locator) => (await locator.textContent()) ?? "";
    // The status line is the panel's live region: what a screen reader announces.
    return { status: await text(details.getByRole("status")), body: await text(body) };
  } finally {
    site.calling.count--;
  }
}

describe("the reference's Try it console, against the simulator docs:serve starts", () => {
  it("calls an operation with the simulator's token and shows 200 and the body", async () => {
    const details = await panel("getCurrentClient");
    expect(await details.getByLabel("Base URL").inputValue()).toBe(site.simulator.url);
    const answer = await send(details);
    expect(answer.status).toBe("200 OK");
    const direct = await fetch(`${site.simulator.url}${byId("getCurrentClient").path}`, {
      headers: {
        Authorization: `${tokenScheme(loadModel(), "APIKey").tokenPrefix}${site.simulator.apiKey}`,
      },
    });
    expect(JSON.parse(answer.body)).toEqual(await direct.json());
    // The answer's headers, readable across origins: the simulator's own mark among them.
    expect(await details.locator(".try-it-headers").textContent()).toMatch(/^x-platform-api-simulator: /m);
  });

  it("sends a reseller operation with the reseller token its security scheme names", async () => {
    const details = await panel("listQuotaLimitRequests");
    expect(await details.getByLabel(/Reseller admin token/).inputValue()).toBe(site.simulator.resellerApiKey);
    expect((await send(details)).status).toBe("200 OK");
  });

  it("shows a refusal: a token the reader typed that the simulator does not know is a 401", async () => {
    const details = await panel("getCurrentClient");
    await details.getByLabel(/^API token/).fill(TYPED_TOKEN);
    const answer = await send(details, true);
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
    for (const token of [TYPED_TOKEN, site.simulator.apiKey, site.simulator.resellerApiKey]) {
      expect(site.requestedUrls.filter((url) => url.includes(token))).toEqual([]);
      expect(site.consoleTexts.filter((text) => text.includes(token))).toEqual([]);
    }
    // Chromium's own line for the refused call is the only error: the page's script wrote none,
    // during the calls or at any other time (the watch's errors, which browser.test.ts checks too,
    // whichever file runs last); and the calls were the three sent here, to the simulator only.
    // Each line starts with its page's address (which Redoc's scroll spy rewrites as it runs).
    expect(site.calling.errors.map((line) => line.replace(/^\S+: /, ""))).toEqual([
      "Failed to load resource: the server responded with a status of 401 (Unauthorized)",
    ]);
    expect(site.consoleErrors).toEqual([]);
    const path = (operationId: string) => `${site.simulator.url}${byId(operationId).path}`;
    // Each call's path (its query is the panel's prefilled parameters).
    expect(site.calling.requests.map((line) => line.replace(/\?.*$/, ""))).toEqual([
      `GET ${path("getCurrentClient")}`,
      `GET ${path("listQuotaLimitRequests")}`,
      `GET ${path("getCurrentClient")}`,
    ]);
    expect(site.foreignRequests).toEqual([]);
  });
});
