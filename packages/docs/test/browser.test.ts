// The built site in a real browser (system Chromium driven by playwright-core), for what only a
// browser shows: Redoc lists every operation, the site's search finds check_limits, the TypeScript
// sample shows, the pages' policy refuses a javascript: link, the copy buttons the page's script
// adds, no console error and no request to another origin. Saves screenshots of the landing page
// and of one operation. What the built HTML says (titles, links, the guides' navigation) is read
// without a browser in build.test.ts; every guide is loaded in a browser by browser-layout.test.ts,
// which watches its console and requests too.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadBundle } from "@platform-api/spec";
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { GCORE_PYTHON } from "../src/gcore-python.js";
import { isObject, listOperations, type Operation } from "../src/operations.js";
import { operationAnchor } from "../src/reference.js";
import { type WatchedSite, watchedSite } from "./shared-reference.js";

const bundle = loadBundle();
const operations = listOperations(bundle);
const byId = (operationId: string): Operation => {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
};
const tagGroupNames = (Array.isArray(bundle["x-tagGroups"]) ? bundle["x-tagGroups"] : [])
  .filter(isObject)
  .map((g) => String(g.name));
const screenshots = new URL("../screenshots/", import.meta.url).pathname;

let site: WatchedSite;
let context: BrowserContext;

beforeAll(async () => {
  // The context, the server and the reference are the worker's (shared-reference.ts).
  site = await watchedSite();
  context = site.context;
  mkdirSync(screenshots, { recursive: true });
}, 120_000);

const openReference = () => site.reference();

/**
 * A guide card opens its guide wherever it is clicked, and a link of its summary opens that link's
 * page: what a click reaches is the stylesheet's doing (the title's link covers the card, the
 * summary's links sit above it), which only a browser's hit testing shows.
 */
async function expectGuideCardsClickable(page: Page) {
  // In the page, in one call: each card scrolled into view (elementFromPoint sees only the
  // viewport), then what a click at its bottom left corner (its padding, no text) and at the middle
  // of each link of its summary would reach.
  const cards = await page.evaluate(() =>
    [...document.querySelectorAll(".guide-card")].map((card) => {
      const reached = (element: Element) => {
        element.scrollIntoView({ block: "center" });
        const box = element.getBoundingClientRect();
        const at =
          element === card
            ? [box.left + 4, box.bottom - 4]
            : [box.left + box.width / 2, box.top + box.height / 2];
        return document
          .elementFromPoint(at[0] ?? 0, at[1] ?? 0)
          ?.closest("a")
          ?.getAttribute("href");
      };
      return {
        href: card.querySelector("h3 a")?.getAttribute("href"),
        reached: reached(card),
        links: [...card.querySelectorAll("p a")].map((link) => ({
          href: link.getAttribute("href"),
          reached: reached(link),
        })),
      };
    }),
  );
  expect(cards.length).toBeGreaterThan(0);
  for (const card of cards) {
    expect(card.href).toBeTruthy();
    expect(card.reached, `${card.href}`).toBe(card.href);
    for (const link of card.links) expect(link.reached, `${card.href}: ${link.href}`).toBe(link.href);
  }
  // At least one summary links elsewhere (guides/conformance-fuzz.md), so the loop above checks one.
  expect(cards.some((card) => card.links.length > 0)).toBe(true);
}

describe("the site in Chromium", () => {
  // The copy buttons are made by the page's script (assets/site.js), and the screenshot is of the
  // page as drawn; the landing page's HTML (its title, links, samples) is read in build.test.ts.
  it("gives the landing page's code blocks their copy buttons, and its guide cards a click target each", async () => {
    const page = await context.newPage();
    await page.goto(`${site.server.url}/`);
    const figures = page.locator("figure.code");
    expect(await figures.count()).toBeGreaterThan(1);
    expect(await figures.locator("button.copy").count()).toBe(await figures.count());
    await page.screenshot({ path: join(screenshots, "landing.png") });
    await expectGuideCardsClickable(page);
    await page.close();
  }, 30_000);

  // Only a browser enforces the policy: the HTML's own policy is read in build.test.ts.
  it("runs no javascript: link, by the pages' Content-Security-Policy", async () => {
    // A second guard behind the changelog's own check of links (src/changelog.ts): were a
    // javascript: link ever written into a page, Chromium would refuse to run it.
    const page = await context.newPage();
    site.provoking.add(page);
    await page.goto(`${site.server.url}/changelog.html`);
    // Whichever comes first: Chromium's refusal in the console, or the script's mark on the page.
    const refused = page
      .waitForEvent("console", (m) => /Content Security Policy/.test(m.text()))
      .then((m) => `refused: ${m.text()}`);
    const ran = page.waitForFunction(() => document.body.dataset.ran === "yes").then(() => "ran");
    await page.evaluate(() => {
      const link = document.createElement("a");
      link.href = "javascript:void (document.body.dataset.ran = 'yes')";
      link.textContent = "hostile";
      document.body.append(link);
      link.click();
    });
    // The loser is left waiting until the page closes: its end is of no interest.
    expect(await Promise.race([refused, ran].map((p) => p.catch((e: Error) => e.message)))).toMatch(
      /^refused: .*script-src 'self'/,
    );
    expect(await page.evaluate(() => document.body.dataset.ran)).toBeUndefined();
    await page.close();
  }, 30_000);

  // Redoc builds the reference's menu in the page from the embedded description.
  it("lists every operation of the description in the reference", async () => {
    const page = await openReference();
    for (const op of operations) {
      const item = page.locator(`.menu-content [data-item-id$="/operation/${op.operationId}"]`);
      expect(await item.count(), op.operationId).toBe(1);
      expect(await item.textContent()).toContain(op.summary);
    }
    expect(tagGroupNames.length).toBeGreaterThan(0);
    for (const name of tagGroupNames)
      expect(await page.locator(".menu-content").textContent()).toContain(name);
  }, 30_000);

  // The search runs in the page (assets/search.js over the built index).
  it("finds check_limits with the site's search on the reference page (Redoc's own is off)", async () => {
    const page = await openReference();
    expect(await page.locator('input[placeholder="Search..."]').count()).toBe(0);
    const search = page.getByRole("combobox", { name: /search/i });
    await search.fill("check_limits");
    const results = page.getByRole("listbox");
    await results.getByRole("option").first().waitFor();
    const target = operations.find((op) => op.path.endsWith("/check_limits"));
    expect(target).toBeDefined();
    expect(await results.textContent()).toContain(target?.summary);
    // Closed again, so the results cover nothing the next tests click.
    await search.fill("");
    await search.press("Escape");
    await results.waitFor({ state: "hidden" });
  }, 30_000);

  // Redoc renders the samples' tabs and the notes; a tab shows its panel only when clicked.
  it("shows an operation's TypeScript sample and the notes for what is not specified", async () => {
    const page = await openReference();
    // An operation with something neither the seed nor the platform's description states.
    const op = byId("putStorageNotificationEvent");
    const id = operationAnchor(op);
    const section = page.locator(`[id="${id}"]`);
    await section.waitFor();
    await section.locator('[role="tab"]', { hasText: "TypeScript" }).first().click();
    const panel = section.locator('[role="tabpanel"]', { hasText: "@platform-api/client" }).first();
    await panel.waitFor({ state: "visible" });
    expect(await panel.textContent()).toContain(
      `client.${op.method.toUpperCase()}(${JSON.stringify(op.path)}`,
    );
    const note = section.locator(".unspecified-note").first();
    await note.waitFor({ state: "visible" });
    expect(await note.textContent()).toContain("Not specified by the platform's documentation");
    // Frame the operation's heading just below the site's sticky header.
    await section
      .locator("h2")
      .first()
      .evaluate((h) => {
        window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY - 80);
      });
    // Redoc marks the operation in its menu once the scroll has settled.
    await page.locator(`.menu-content li[data-item-id="${id}"] > label.active`).waitFor();
    await page.screenshot({ path: join(screenshots, "operation.png") });
  }, 30_000);

  // Redoc turns x-codeSamples into tabs and highlights each by its language: only its rendering
  // shows that the Python sample gets a tab and a panel with the code (build.test.ts reads the
  // embedded description, where the sample is only data).
  it("shows an operation's Python sample, with gcore-python", async () => {
    const page = await openReference();
    const op = operations.find((o) => GCORE_PYTHON.methods[o.operationId]);
    const sdk = op && GCORE_PYTHON.methods[op.operationId];
    if (!op || !sdk) throw new Error("no operation has a Python sample");
    const section = page.locator(`[id="${operationAnchor(op)}"]`);
    await section.locator('[role="tab"]', { hasText: "Python" }).first().click();
    const panel = section.locator('[role="tabpanel"]', { hasText: `client.${sdk.method}(` }).first();
    await panel.waitFor({ state: "visible" });
    expect(await panel.textContent()).toContain(
      `from ${GCORE_PYTHON.client.module} import ${GCORE_PYTHON.client.name}`,
    );
    // Back to the first tab, as the other tests found the section.
    await section.locator('[role="tab"]', { hasText: "curl" }).first().click();
  }, 30_000);

  // Redoc renders nested fields, and only once they are opened.
  it("marks the deprecated quota field", async () => {
    const page = await openReference();
    const id = operationAnchor(byId("listQuotaLimitRequests"));
    const section = page.locator(`[id="${id}"]`);
    await section.waitFor();
    // results -> requested_limits -> regional_limits: the field's row is the innermost one.
    // Each opened unless open already (browser-notes.test.ts opens every field of the shared page).
    for (const name of ["results", "requested_limits", "regional_limits"]) {
      const button = section.locator("button", { hasText: new RegExp(`^${name}`) }).first();
      if (!(await button.evaluate((b) => b.closest("tr")?.classList.contains("expanded"))))
        await button.click();
    }
    const row = section.locator("tr", { hasText: "baremetal_gpu_count_limit" }).last();
    await row.waitFor({ state: "visible" });
    expect(await row.textContent()).toMatch(/^baremetal_gpu_count_limit\s*integer\s*Deprecated/);
    const sibling = section.locator("tr", { hasText: /^baremetal_gpu_a100_count_limit\s*integer/ }).last();
    await sibling.waitFor({ state: "visible" });
    expect(await sibling.textContent()).not.toContain("Deprecated");
  }, 30_000);

  // Console errors and requests exist only in a running page. The shared site's watch leaves out
  // only browser-console.test.ts's calls to the simulator, while each is under way (its `send`).
  it("logged no console error and sent no request to another origin", () => {
    expect(site.consoleErrors).toEqual([]);
    expect(site.foreignRequests).toEqual([]);
  });
});
