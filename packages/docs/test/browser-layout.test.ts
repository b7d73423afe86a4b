// The site at a desktop (1280 px) and a phone (390 px) width, in the light and the dark theme, in
// the system's Chromium: no page scrolls sideways, the reference's JSON samples stay legible, code
// samples show at least 70 characters of a line on a desktop, no identifier in a table breaks
// mid-word, the guide navigation sits behind the one menu button on a phone, a copied operation
// link opens that operation and stays as it was, one search finds guides, operations and the
// reference's general rules from every page and shows where each matched (a snippet with the words
// marked), the changelog is in the menu, a theme switch beside the system's setting, the dark
// theme follows the system's setting everywhere, Redoc included, axe-core finds nothing serious or
// critical on any page in either theme, and a skip link takes the keyboard into the content. It
// needs the browser: line breaks, widths, Redoc's scroll spy, rendered colours, what axe reads and
// where the focus goes exist only in a rendered page.
// Nothing here measures speed: every step waits for an element or an event, with explicit
// timeouts far above what a loaded machine needs. It is kept cheap for the 2-core machine the whole
// `pnpm test` shares: one browser context, each page loaded once and measured at both widths and
// both themes by changing them in place where the page follows live (see `show` and `view`), all
// of a width's checks together (a new width lays the page out again), and the reference, whose
// render is the costliest step, loaded only where a test must see a load (see the journey).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { buildModel, loadBundle, paginatedOperations } from "@platform-api/spec";
import type * as Axe from "axe-core";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { codeSamplesFor } from "../src/code-samples.js";
import { GUIDE_ORDER, guidesDir, loadGuides } from "../src/guides.js";
import { listOperations } from "../src/operations.js";
import { operationAnchor, referenceDocument } from "../src/reference.js";
import { descriptionSectionEntries } from "../src/search-index.js";
import { type DocsServer, serveDocs } from "../src/serve.js";
import { builtSite } from "./built-site.js";
import { sharedBrowser } from "./shared-browser.js";

const TIMEOUT = 60_000;
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
/** Both widths, one theme each, for a check whose colours matter once: the desktop light, the phone dark. */
const EACH_WIDTH_ONE_THEME = [
  ["desktop", DESKTOP, "light"],
  ["phone", PHONE, "dark"],
] as const;
const PAGES = [
  { name: "the landing page", path: "/" },
  { name: "the getting-started guide", path: "/guides/getting-started.html" },
  { name: "the reference", path: "/reference/index.html" },
];

const bundle = loadBundle();
const guides = loadGuides();
const operations = listOperations(bundle);
const checkLimits = (() => {
  const found = operations.find((op) => op.path.endsWith("/check_limits"));
  if (!found) throw new Error("the description has no check_limits operation");
  return found;
})();
const SCHEMES = ["light", "dark"] as const;
/** A sample must show this many characters of a line at a desktop width (or the whole line). */
const SAMPLE_COLUMNS = 70;
/** The operation whose samples have the longest line: the hardest one to show. */
const widestSample = operations
  .map((op) => ({
    op,
    longest: Math.max(
      ...codeSamplesFor(bundle, op).flatMap((s) => s.source.split("\n").map((l) => l.length)),
    ),
  }))
  .sort((a, b) => b.longest - a.longest)[0]?.op;
if (!widestSample) throw new Error("the description has no operation");

/** A word that only the getting-started guide contains: in no other guide, nowhere in the description. */
const uniqueWord = (() => {
  const prose = (markdown: string) => markdown.replace(/<!--[\s\S]*?-->/g, " ").replace(/\]\([^)]*\)/g, "] ");
  const others = GUIDE_ORDER.filter((slug) => slug !== "getting-started")
    .map((slug) => readFileSync(join(guidesDir, `${slug}.md`), "utf8").toLowerCase())
    .join("\n");
  const description = JSON.stringify(bundle).toLowerCase();
  const own = prose(readFileSync(join(guidesDir, "getting-started.md"), "utf8")).match(/[A-Za-z]{7,}/g) ?? [];
  const word = own.map((w) => w.toLowerCase()).find((w) => !others.includes(w) && !description.includes(w));
  if (!word) throw new Error("no word of getting-started.md is unique to it");
  return word;
})();

let dir: string;
let server: DocsServer;
let browser: Browser;
/**
 * Every page lives in one browser context. A new context cost Chromium about 0.85 s of CPU on this
 * 2-core machine (measured: 8 loads of a guide, 10.3 CPU-s in fresh contexts, 3.5 in one page),
 * and this file opened some forty: most of its cost. The one setting a page stores, the theme
 * switch's choice (localStorage), is cleared around each theme-switch test.
 */
let site: BrowserContext;
/** The page of the tests that click and type: each `open` loads a fresh document in it. */
let scratch: Page | undefined;
/** The journey's page, which becomes the shared light reference (see the journey). */
let journeyPage: Page | undefined;
const viewed = new Map<string, Promise<Page>>();
/** The size and colour scheme each page was last given, and the page in front (see `show`). */
const shown = new WeakMap<Page, { size: string; colorScheme: "light" | "dark" }>();
let front: Page | undefined;
const consoleErrors: string[] = [];
const foreignRequests: string[] = [];

beforeAll(async () => {
  dir = builtSite();
  server = await serveDocs({ port: 0, dir });
  browser = await sharedBrowser();
  site = await newContext();
}, TIMEOUT);

afterAll(async () => {
  // The browser is the worker's (shared-browser.ts); this file's pages go with their context.
  await site?.close();
  await server?.close();
});

/** A context watched for requests to other origins. */
async function newContext(): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: DESKTOP, colorScheme: "light" });
  context.setDefaultTimeout(TIMEOUT);
  context.setDefaultNavigationTimeout(TIMEOUT);
  const origin = new URL(server.url).origin;
  context.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith("data:") && new URL(url).origin !== origin) foreignRequests.push(url);
  });
  return context;
}

/** A page of `context` whose console errors and uncaught errors are kept. */
async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  front = undefined;
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  return page;
}

/**
 * The page shows `viewport` and `colorScheme`, and the page's own code has seen the change: the
 * window has the width, the colour-scheme media query matches, and a frame has been rendered since
 * (media-query "change" listeners, such as the guide's "On this page", run in a frame's rendering
 * step, before its animation-frame callbacks). The CSS follows on the next style read.
 */
async function show(page: Page, viewport: { width: number; height: number }, colorScheme: "light" | "dark") {
  // Pages of one context are tabs of one window: only the front one renders frames at full rate
  // (animation frames, scroll events, Redoc's scroll spy), the others are throttled.
  if (front !== page) await page.bringToFront();
  front = page;
  const size = `${viewport.width}x${viewport.height}`;
  const before = shown.get(page);
  if (before?.size === size && before.colorScheme === colorScheme) return;
  shown.set(page, { size, colorScheme });
  // Only what changed: each is a round trip to the browser, and a new size lays the page out again.
  if (before?.size !== size) await page.setViewportSize(viewport);
  if (before?.colorScheme !== colorScheme) await page.emulateMedia({ colorScheme });
  if (page.url() === "about:blank") return;
  // One round trip: checked each frame until it holds, then one frame more.
  await page.evaluate(
    ([width, dark]) =>
      new Promise((resolve) => {
        const check = () =>
          window.innerWidth === width && window.matchMedia("(prefers-color-scheme: dark)").matches === dark
            ? requestAnimationFrame(resolve)
            : requestAnimationFrame(check);
        requestAnimationFrame(check);
      }),
    [viewport.width, colorScheme === "dark"] as const,
  );
}

/**
 * A fresh document at `path`, of that size and colour scheme, for a test that clicks or types: the
 * scratch page, emptied (about:blank, so a link with only another #hash still loads the page anew)
 * and loaded again.
 */
async function open(
  path: string,
  viewport: { width: number; height: number },
  colorScheme: "light" | "dark" = "light",
): Promise<Page> {
  scratch ??= await newPage(site);
  const page = scratch;
  await page.goto("about:blank");
  await show(page, viewport, colorScheme);
  await page.goto(`${server.url}${path}`);
  if (path.startsWith("/reference/")) await redocRendered(page);
  return page;
}

/**
 * A page that tests look at, loaded once and shared by every test that reads it (a test that
 * clicks in it leaves it as it found it, and says so), its width (and, but for the reference, its colour scheme) changed in place. The page's
 * CSS media queries and its matchMedia listeners follow a change live (see `show`); Redoc's
 * layout is CSS media queries too, but Redoc renders again in the other theme (assets/reference.js),
 * which costs as much as a load: the reference has one page per colour scheme, the dark one loaded
 * from an operation's link (`darkLink`), both the journey's (loaded here only when the journey did
 * not run to its end).
 */
async function view(
  path: string,
  viewport: { width: number; height: number },
  colorScheme: "light" | "dark" = "light",
): Promise<Page> {
  const key = path.startsWith("/reference/") ? `${path} ${colorScheme}` : path;
  let loading = viewed.get(key);
  if (!loading) {
    loading = (async () => {
      const page = await newPage(site);
      await show(page, viewport, colorScheme);
      await page.goto(`${server.url}${path}${isReference(path) && colorScheme === "dark" ? darkLink : ""}`);
      if (path.startsWith("/reference/")) await redocRendered(page);
      return page;
    })();
    viewed.set(key, loading);
  }
  const page = await loading;
  await show(page, viewport, colorScheme);
  return page;
}

/** Redoc has rendered the operations and their samples (its sidebar is hidden on a phone). */
async function redocRendered(page: Page) {
  await page.locator(".api-content").waitFor({ state: "attached" });
  await page.locator(".redoc-json").first().waitFor({ state: "attached" });
}

type Rgba = [number, number, number, number];

/**
 * What `locator` looks like: its text colour and the colour behind it, every translucent
 * background up the tree composited onto the first opaque one (white when none is).
 */
async function colours(locator: Locator): Promise<{ color: Rgba; background: Rgba }> {
  const raw = await locator.evaluate((element) => {
    const layers: string[] = [];
    for (let e: Element | null = element; e; e = e.parentElement) {
      const bg = getComputedStyle(e).backgroundColor;
      layers.push(bg);
      if (/^rgb\(/.test(bg)) break;
    }
    return { color: getComputedStyle(element).color, layers };
  });
  const parse = (css: string): Rgba => {
    const n = (css.match(/[\d.]+/g) ?? []).map(Number);
    return [n[0] ?? 0, n[1] ?? 0, n[2] ?? 0, n[3] ?? 1];
  };
  let background: Rgba = [255, 255, 255, 1];
  for (const layer of raw.layers.reverse()) {
    const [r, g, b, a] = parse(layer);
    background = [
      r * a + background[0] * (1 - a),
      g * a + background[1] * (1 - a),
      b * a + background[2] * (1 - a),
      1,
    ];
  }
  return { color: parse(raw.color), background };
}

const luminance = ([r, g, b]: Rgba) => {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};
const contrast = (a: Rgba, b: Rgba) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
const round = (c: Rgba) => c.slice(0, 3).map(Math.round).join(",");

/** axe-core, the field's accessibility checker (Deque's rules behind Lighthouse's audit), as a script. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
/**
 * axe's rules whose findings follow the theme: colours. Every other rule reads the markup and the
 * layout, the same in both themes (the site's CSS variables and Redoc's theme object change colours
 * only).
 */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];
/**
 * The one rule whose finding the width changes on the reference: which boxes scroll sideways. What
 * else Redoc shows at a phone width it shows on a desktop (what a phone hides, axe skips), and the
 * header and its menu are the guides' own, checked with every rule at a phone width there.
 */
const WIDTH_RULES = ["scrollable-region-focusable"];
/** What axe checks in one view: every rule, or only the colour rules, or only the width's. */
type AxeRules = "all" | "colour" | "width";
/**
 * Rules of moderate impact this site was made to pass (a main landmark, content in landmarks,
 * headings in order): reported with the serious and critical ones, so they stay fixed.
 */
const KEPT_MODERATE = ["landmark-one-main", "region", "heading-order"];
/**
 * What axe checks of a page shown at `viewport` in `scheme`, each page loaded once and changed in
 * place: each theme once, each width once. Every rule in the dark theme at a desktop width (where
 * the reference is loaded from an operation's link, its sidebar open at that operation: see
 * `darkLink`). In the light theme, every rule at a phone width on the landing page and the
 * guides (their colours do not follow the width); on the reference, whose sidebar a phone hides,
 * the colour rules at a desktop width and the width's rule at a phone width. axe's colour check
 * is its costliest (6 of the reference's 9 CPU-seconds): it runs once per theme.
 */
function axeRules(viewport: { width: number }, scheme: "light" | "dark", path: string): AxeRules | undefined {
  const desktop = viewport.width === DESKTOP.width;
  if (scheme === "dark") return desktop ? "all" : undefined;
  if (!isReference(path)) return desktop ? undefined : "all";
  return desktop ? "colour" : "width";
}

/**
 * axe's serious and critical findings (and those of `KEPT_MODERATE`) on the page as it shows now,
 * one line each: the rule, the element, what to fix. axe is evaluated, not added as a script tag:
 * the pages' Content-Security-Policy runs no inline script, and the DevTools protocol's evaluation
 * is outside it.
 */
async function axeFindings(page: Page, rules: AxeRules): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const options: Axe.RunOptions = { resultTypes: ["violations"] };
  if (rules !== "all")
    options.runOnly = { type: "rule", values: rules === "colour" ? COLOUR_RULES : WIDTH_RULES };
  return page.evaluate(
    async ([options, kept]) => {
      const { axe } = window as unknown as { axe: typeof Axe };
      const { violations } = await axe.run(document, options);
      return violations
        .filter((v) => v.impact === "serious" || v.impact === "critical" || kept.includes(v.id))
        .flatMap((v) =>
          v.nodes.map(
            (n) =>
              `${v.id} (${v.impact}) ${n.target.join(" ")}: ${(n.failureSummary ?? v.help).replace(/\s+/g, " ")}`,
          ),
        );
    },
    [options, KEPT_MODERATE] as const,
  );
}

async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
}

/** Every brace and bracket of the first JSON sample has the sample panel's background and reads on it. */
async function expectLegibleJsonSample(page: Page) {
  const sample = page.locator(".redoc-json").first();
  await sample.scrollIntoViewIfNeeded();
  const panel = await colours(sample.locator(".."));
  const braces = sample.locator(".token.punctuation");
  const count = await braces.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < Math.min(count, 6); i++) {
    const brace = await colours(braces.nth(i));
    expect(round(brace.background), `brace ${i}: background`).toBe(round(panel.background));
    expect(contrast(brace.color, brace.background), `brace ${i}: contrast`).toBeGreaterThanOrEqual(4.5);
  }
  const code = await colours(sample.locator("code").first());
  expect(round(code.background), "the sample's <code>").toBe(round(panel.background));
}

/** Every visible text of the page that reads at less than 4.5:1 on what is behind it. */
async function lowContrastTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const parse = (css: string) => {
      const n = (css.match(/[\d.]+/g) ?? []).map(Number);
      return [n[0] ?? 0, n[1] ?? 0, n[2] ?? 0, n[3] ?? 1] as const;
    };
    // What is behind an element is its own background over what is behind its parent (white at
    // the top), kept per element: each ancestor's style is read once, not once per text under it.
    const seen = new Map<Element, number[]>();
    const behind = (element: Element | null): number[] => {
      if (!element) return [255, 255, 255];
      const known = seen.get(element);
      if (known) return known;
      const bg = getComputedStyle(element).backgroundColor;
      const [r, g, b, a] = parse(bg);
      let colour: number[];
      if (/^rgb\(/.test(bg)) colour = [r, g, b];
      else {
        const [r0 = 255, g0 = 255, b0 = 255] = behind(element.parentElement);
        colour = [r * a + r0 * (1 - a), g * a + g0 * (1 - a), b * a + b0 * (1 - a)];
      }
      seen.set(element, colour);
      return colour;
    };
    const luminance = (rgb: number[]) =>
      rgb
        .map((c) => c / 255)
        .map((s) => (s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4))
        .reduce((sum, c, i) => sum + c * ([0.2126, 0.7152, 0.0722][i] ?? 0), 0);
    const found = new Set<string>();
    for (const element of document.querySelectorAll("body *")) {
      const ownText = [...element.childNodes].some(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
      );
      if (!ownText || element.closest("svg") || element.getClientRects().length === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === "hidden") continue;
      const [r, g, b, a] = parse(style.color);
      const bg = behind(element);
      const fg = [
        r * a + (bg[0] ?? 0) * (1 - a),
        g * a + (bg[1] ?? 0) * (1 - a),
        b * a + (bg[2] ?? 0) * (1 - a),
      ];
      const [hi, lo] = [luminance(fg), luminance(bg)].sort((x, y) => y - x) as [number, number];
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < 4.5)
        found.add(
          `${element.tagName.toLowerCase()} "${element.textContent?.trim().slice(0, 30)}": ${ratio.toFixed(2)}`,
        );
    }
    return [...found];
  });
}

const searchBox = (page: Page) => page.getByRole("combobox", { name: /search/i });

async function search(page: Page, query: string): Promise<Locator> {
  const box = searchBox(page);
  await box.click();
  await box.fill(query);
  const options = page.getByRole("listbox").getByRole("option");
  await options.first().waitFor({ state: "visible" });
  return options;
}

/** Redoc has scrolled the operation's section into view. */
async function operationInView(page: Page, id: string) {
  await page.waitForFunction(
    (anchor) => {
      const section = document.getElementById(anchor);
      if (!section) return false;
      const top = section.getBoundingClientRect().top;
      return top >= -4 && top < window.innerHeight / 2;
    },
    id,
    { timeout: TIMEOUT },
  );
}

const isReference = (path: string) => path.startsWith("/reference/");

/** How light the page's background is: the guide's or landing page's content, or Redoc's middle panel. */
async function backgroundLuminance(page: Page, path: string) {
  if (!isReference(path)) return luminance((await colours(page.locator("#content"))).background);
  await redocRendered(page);
  return luminance((await colours(page.locator(".api-content p").first())).background);
}

/** The reference shows `theme`: Redoc has rendered again in it (assets/reference.js). */
async function redocTheme(page: Page, theme: "light" | "dark") {
  await page.waitForFunction((t) => document.documentElement.dataset.redocTheme === t, theme);
}

/**
 * The theme switch's choice is kept in the context's localStorage, which every page shares: each
 * test that chooses starts and ends with none.
 */
async function forget() {
  const page = [scratch, journeyPage].find((p) => p?.url().startsWith(server.url));
  if (page) await page.evaluate(() => window.localStorage.clear());
}

/**
 * The page opened at the operation or section `id`: Redoc scrolled it into view, and the address
 * still names what `link` named once Redoc's scroll spy has run (it marks a sidebar entry; a later
 * timer flushes its debounced rewrite of the address). Which sidebar entry is marked is not asked:
 * the spy is throttled and walks only in the direction of the last scroll, so on a loaded machine
 * (seen once in CI) it can keep the entry above marked while the page above still grows.
 */
async function openedAt(page: Page, id: string, link: string) {
  await operationInView(page, id);
  await page.locator(".menu-content label.active").first().waitFor({ state: "attached" });
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  expect(new URL(page.url()).hash, `the address still names ${link}`).toBe(link);
}

/**
 * How many characters of a line each code block of `pres` shows without scrolling it, and its
 * longest line: the block's text start to the nearest edge that clips it (a scroll box up the
 * tree, the window). One round trip for all the blocks of a page.
 */
async function sampleColumns(pres: Locator): Promise<{ columns: number; longest: number }[]> {
  return pres.evaluateAll((elements) =>
    elements.map((element) => {
      const probe = document.createElement("span");
      probe.textContent = "0".repeat(20);
      probe.style.cssText = "position:absolute;visibility:hidden;white-space:pre";
      (element.querySelector("code") ?? element).append(probe);
      const charWidth = probe.getBoundingClientRect().width / 20;
      probe.remove();
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const left = box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft);
      let right = Math.min(window.innerWidth, box.right - parseFloat(style.borderRightWidth));
      if (style.overflowX !== "visible") right -= parseFloat(style.paddingRight);
      for (let e = element.parentElement; e; e = e.parentElement)
        if (getComputedStyle(e).overflowX !== "visible")
          right = Math.min(right, e.getBoundingClientRect().right);
      const lines = (element.textContent ?? "").split("\n");
      return {
        columns: Math.floor((right - left) / charWidth),
        longest: Math.max(...lines.map((l) => l.length)),
      };
    }),
  );
}

/** Each code block of `pres` shows 70 characters of a line (or the whole line); at least `least` blocks. */
async function expectReadableSamples(pres: Locator, what: string, least = 1) {
  const shown = await sampleColumns(pres);
  expect(shown.length, `${what}: code blocks`).toBeGreaterThanOrEqual(least);
  shown.forEach(({ columns, longest }, i) => {
    expect
      .soft(columns, `${what} ${i}: shows ${columns} characters of its ${longest}-character line`)
      .toBeGreaterThanOrEqual(Math.min(SAMPLE_COLUMNS, longest));
  });
}

/**
 * Words of the tables matched by `selector` that a line break splits in the middle ("create_volum|e"):
 * a break may only follow a path's "/" (or "," "." "-" "&" "?" "="), or come before a "/".
 */
async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((tables) => {
    const found = new Set<string>();
    const breakable = (before: string, after: string) => "/,.-&?=".includes(before) || after === "/";
    const range = document.createRange();
    for (const table of document.querySelectorAll(tables)) {
      if (table.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        // A text that sits on one line breaks no word: only one drawn on several is looked at.
        range.selectNodeContents(node);
        if (range.getClientRects().length < 2) continue;
        // Likewise a word drawn as one box: only a word drawn on several is walked by character.
        for (const word of text.matchAll(/\S+/g)) {
          const start = word.index;
          range.setStart(node, start);
          range.setEnd(node, start + word[0].length);
          if (range.getClientRects().length < 2) continue;
          let top: number | undefined;
          for (let i = start; i < start + word[0].length; i++) {
            const char = text.charAt(i);
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getClientRects()[0];
            if (!rect || rect.width === 0) continue;
            if (
              top !== undefined &&
              rect.top > top + rect.height / 2 &&
              !breakable(text.charAt(i - 1), char)
            ) {
              const end = text.slice(i).search(/\s|$/);
              found.add(`${text.slice(start, i)}|${text.slice(i, i + end)}`);
            }
            top = rect.top;
          }
        }
      }
    }
    return [...found];
  }, selector);
}

let guideTablesRun: Promise<{ broken: string[]; sideways: string[]; findings: string[] }> | undefined;
/**
 * The landing page and all eleven guides, each loaded once and measured at both widths in both
 * themes (changed in place, see `show`): the mid-word breaks of its tables, whether it scrolls
 * sideways and axe's findings (`axeRules`), each line prefixed with its width. Shared by the
 * desktop and the phone tests.
 */
function guideTables() {
  guideTablesRun ??= (async () => {
    const page = await newPage(site);
    const broken: string[] = [];
    const sideways: string[] = [];
    const findings: string[] = [];
    try {
      // Each state one change away from the one before (the next page starts in the last one).
      const states = [DESKTOP, PHONE].flatMap((viewport, i) =>
        (i ? [...SCHEMES].reverse() : SCHEMES).map((scheme) => ({ viewport, scheme })),
      );
      for (const [i, path] of ["/", ...GUIDE_ORDER.map((slug) => `/guides/${slug}.html`)].entries()) {
        await page.goto(`${server.url}${path}`);
        for (const { viewport, scheme } of i % 2 ? [...states].reverse() : states) {
          await show(page, viewport, scheme);
          const where = `${viewport.width}px ${path} (${scheme})`;
          for (const word of await brokenWords(page, "#content table")) broken.push(`${where}: ${word}`);
          const { scrollWidth, clientWidth } = await horizontalOverflow(page);
          if (scrollWidth > clientWidth) sideways.push(`${where}: ${scrollWidth} > ${clientWidth}`);
          const rules = axeRules(viewport, scheme, path);
          if (rules) for (const line of await axeFindings(page, rules)) findings.push(`${where}: ${line}`);
        }
      }
    } finally {
      await page.close();
    }
    return { broken, sideways, findings };
  })();
  return guideTablesRun;
}

/** The operation of Redoc's link tests: one with a tag, not the first (whose section tops the page). */
const linked = operations.find((o) => o.tags[0] && o !== operations[0]) ?? checkLimits;
/**
 * Where the shared dark reference is loaded: Redoc's older form of a link to `linked`, so that its
 * one load (the costliest thing here) also shows such a link opening, at a phone width (the
 * journey; the link Redoc's address shows now is opened by the light one's load).
 */
const darkLink = `#operation/${linked.operationId}`;
/** An operation other than check_limits that its own summary finds first: the longest summary, the most specific query. */
const elsewhere = (() => {
  const [longest] = operations
    .filter((o) => o !== checkLimits)
    .sort((a, b) => b.summary.length - a.summary.length);
  if (!longest) throw new Error("the description has one operation only");
  return longest;
})();

/** The reference's rule on rate limits among the search's results: its own section, with a marked snippet. */
async function rateLimitsRule(page: Page): Promise<Locator> {
  const options = await search(page, "rate limits");
  return options
    .filter({ has: page.locator(".search-kind.reference") })
    .filter({ has: page.locator(".search-snippet mark") })
    .first();
}

/** Is the section `id` scrolled into view? */
function inView(page: Page, id: string): Promise<boolean> {
  return page.evaluate((anchor) => {
    const top = document.getElementById(anchor)?.getBoundingClientRect().top ?? Infinity;
    return top >= -4 && top < window.innerHeight / 2;
  }, id);
}

/** On the reference at a phone width: the search finds a guide, and an operation it then opens with Enter. */
async function searchOnPhone(page: Page) {
  await show(page, PHONE, "light");
  const guideOptions = await search(page, uniqueWord);
  expect(await guideOptions.first().getAttribute("href"), "a guide found from the reference").toMatch(
    /^\.\.\/guides\/getting-started\.html(#|$)/,
  );
  const anchor = operationAnchor(elsewhere);
  expect(await inView(page, anchor), `${anchor} is not in view before it is opened`).toBe(false);
  const options = await search(page, elsewhere.summary);
  expect(await options.first().getAttribute("href"), "an operation found on the reference").toBe(
    `#${anchor}`,
  );
  await page.keyboard.press("Enter");
  await operationInView(page, anchor);
}

/**
 * From a guide, the search finds the reference's rule on rate limits and check_limits; the latter's
 * link (the form Redoc's address shows, as a reader copies it) loads the reference, which opens that
 * operation, keeps the address, renders light on a light system and every section the index links to.
 */
async function fromGuideToReference(page: Page) {
  const anchor = operationAnchor(checkLimits);
  const rule = await rateLimitsRule(page);
  expect(await rule.getAttribute("href"), "the rule found from a guide").toMatch(
    /^\.\.\/reference\/index\.html#section\//,
  );
  const fromGuide = await search(page, "check_limits");
  expect(await fromGuide.first().getAttribute("href")).toBe(`../reference/index.html#${anchor}`);
  expect(await fromGuide.first().textContent()).toContain(checkLimits.summary);
  await fromGuide.first().click();
  await page.waitForURL(/\/reference\/index\.html#/);
  await redocRendered(page);
  await openedAt(page, anchor, `#${anchor}`);
  // A light system's first render of Redoc is light (the shared light reference's later renders
  // follow a theme change: see the journey).
  expect(await backgroundLuminance(page, "/reference/index.html"), "light as loaded").toBeGreaterThan(0.8);
  // Every section of the reference the index links to is one Redoc rendered.
  const anchors = descriptionSectionEntries(referenceDocument(bundle).doc).map((e) => e.id.split("#")[1]);
  const missing = await page.evaluate(
    (ids) => ids.filter((id) => !document.getElementById(id ?? "")),
    anchors,
  );
  expect(missing, "sections of the index that Redoc did not render").toEqual([]);
}

/** On the reference, the search opens the rule on rate limits at its section, then check_limits again. */
async function onReference(page: Page) {
  const rule = await rateLimitsRule(page);
  const ruleHref = (await rule.getAttribute("href")) ?? "";
  expect(ruleHref, "the rule found on the reference").toMatch(/^#section\//);
  await rule.click();
  await operationInView(page, decodeURIComponent(ruleHref.slice(1)));
  const anchor = operationAnchor(checkLimits);
  const options = await search(page, "check_limits");
  expect(await options.first().getAttribute("href")).toBe(`#${anchor}`);
  expect(await inView(page, anchor), `${anchor} is not in view before it is opened`).toBe(false);
  await options.first().click();
  await openedAt(page, anchor, `#${anchor}`);
}

/**
 * The dark reference's load, with dark chosen in the journey's light page: the choice is
 * remembered over a light system on a new load (of Redoc's older form of an operation link, which
 * opens that operation and stays as it was). Then the system turns dark and the reader's choice
 * goes back to the system's, which keeps Redoc as rendered (dark either way, no render again):
 * from here the page is the system's dark reference, as the tests that read it expect, nothing
 * focused (the switch is given its change event: no control is clicked).
 */
async function darkReferenceRemembered(): Promise<Page> {
  const path = "/reference/index.html";
  const page = await newPage(site);
  await show(page, PHONE, "light");
  await page.goto(`${server.url}${path}${darkLink}`);
  await redocTheme(page, "dark");
  expect(await backgroundLuminance(page, path), "dark after a new load").toBeLessThan(0.05);
  expect(await page.getByLabel("Colour theme").inputValue()).toBe("dark");
  await openedAt(page, operationAnchor(linked), darkLink);

  await show(page, PHONE, "dark");
  // The switch's own event, as a choice makes it, without the focus or the menu a click would move.
  await page.getByLabel("Colour theme").evaluate((select) => {
    (select as HTMLSelectElement).value = "system";
    select.dispatchEvent(new Event("change"));
  });
  expect(await page.evaluate(() => document.documentElement.dataset.theme), "no choice left").toBeUndefined();
  expect(await page.evaluate(() => document.documentElement.dataset.redocTheme), "the system's dark").toBe(
    "dark",
  );
  return page;
}

/** Chooses a theme with the switch in the phone's menu, and closes the menu again. */
async function chooseInPhoneMenu(page: Page, choice: "light" | "dark" | "system") {
  const button = page.getByRole("button", { name: /menu/i });
  await button.click();
  await page.getByLabel("Colour theme").selectOption(choice);
  await button.click();
  expect(await button.getAttribute("aria-expanded"), "the menu closed again").toBe("false");
}

/**
 * What every page shows at one width: declared once per width, each width's tests together, as
 * changing the reference's width lays out all of Redoc's page again (a second or more of CPU).
 */
function widthChecks(viewport: { width: number; height: number }, headingScheme: "light" | "dark") {
  it.each(PAGES.flatMap((p) => SCHEMES.map((scheme) => ({ ...p, scheme }))))(
    "$name does not scroll sideways ($scheme)",
    async ({ path, scheme }) => {
      const page = await view(path, viewport, scheme);
      const { scrollWidth, clientWidth } = await horizontalOverflow(page);
      expect(
        scrollWidth,
        `${path}: scrollWidth ${scrollWidth} > clientWidth ${clientWidth}`,
      ).toBeLessThanOrEqual(clientWidth);
    },
  );

  it.each(SCHEMES)("breaks no identifier of the reference's tables mid-word (%s)", async (scheme) => {
    const page = await view("/reference/index.html", viewport, scheme);
    expect(await brokenWords(page, "#redoc table")).toEqual([]);
  });

  it("breaks no word of the guides' and the landing page's tables mid-word, and scrolls no guide sideways, in both themes", async () => {
    const { broken, sideways } = await guideTables();
    expect(broken.filter((line) => line.startsWith(`${viewport.width}px `))).toEqual([]);
    expect(sideways.filter((line) => line.startsWith(`${viewport.width}px `))).toEqual([]);
  });

  // A browser: axe reads the rendered page (computed colours, layout, what is visible, focus).
  it("leaves axe-core no serious or critical finding on the landing page and any guide", async () => {
    const { findings } = await guideTables();
    expect(findings.filter((line) => line.startsWith(`${viewport.width}px `))).toEqual([]);
  });

  const referenceAxeRuns = SCHEMES.flatMap((scheme) => {
    const rules = axeRules(viewport, scheme, "/reference/index.html");
    return rules ? [{ scheme, rules }] : [];
  });
  it.each(referenceAxeRuns)(
    "leaves axe-core no serious or critical finding on the reference ($scheme: $rules rules)",
    async ({ scheme, rules }) => {
      const page = await view("/reference/index.html", viewport, scheme);
      expect(await axeFindings(page, rules)).toEqual([]);
    },
  );

  it.each(SCHEMES)("the reference's JSON samples are legible (%s)", async (scheme) => {
    const page = await view("/reference/index.html", viewport, scheme);
    await expectLegibleJsonSample(page);
  });
  it(`its headings link to their operation, as a reader copies them (${headingScheme})`, async () => {
    const reference = await view("/reference/index.html", viewport, headingScheme);
    for (const op of [checkLimits, linked]) {
      const section = reference.locator(`[data-section-id="${operationAnchor(op)}"]`);
      const href = await section.locator("h2 a[href^='#']").first().getAttribute("href");
      expect(href, op.operationId).toBe(`#${operationAnchor(op)}`);
    }
  });
}

// The phone width first, then the desktop's: each page changes width once (see widthChecks).
// The two shared reference pages (see `view`) are both loaded by this journey: the light one from a
// guide's search on a light system, the dark one with dark chosen there. Following links, the
// search's keyboard, Redoc's scrolling (its scroll spy rewrites the address as it runs) and its
// rendering in a theme happen only in a running page. Rendering the reference is the costliest
// thing a test here does (seconds of CPU): the journey checks everything its loads allow, in order,
// and leaves each page at a phone width, at its top but for the dark one, opened at `linked`.
describe("a journey into the reference, the load of each shared page", () => {
  beforeEach(forget);
  afterEach(forget);

  it("from a guide's search, a copied operation link opens check_limits and stays, light; on the reference to the rate-limits rule and check_limits; at a phone width to a guide and another operation; and the theme chosen in the phone's menu is remembered on a new load", async () => {
    const page = await newPage(site);
    journeyPage = page;
    await show(page, DESKTOP, "light");
    await page.goto(`${server.url}/guides/pagination.html`);
    await fromGuideToReference(page);
    await onReference(page);
    await searchOnPhone(page);

    await chooseInPhoneMenu(page, "dark");
    await redocTheme(page, "dark");
    expect(await backgroundLuminance(page, "/reference/index.html"), "dark when chosen").toBeLessThan(0.05);
    const dark = await darkReferenceRemembered();

    await show(page, PHONE, "light");
    await chooseInPhoneMenu(page, "system");
    await redocTheme(page, "light");
    expect(
      await backgroundLuminance(page, "/reference/index.html"),
      "the system's light again",
    ).toBeGreaterThan(0.8);
    // Handed to the tests that read the shared reference: the light one at its top, as a load leaves it.
    await page.evaluate(() => window.scrollTo(0, 0));
    viewed.set("/reference/index.html light", Promise.resolve(page));
    viewed.set("/reference/index.html dark", Promise.resolve(dark));
  });
});

// A browser: the focus, the keyboard and what shows on screen exist only in a running page, and the
// skip link's script moves the focus (assets/skip-link.js).
describe("the skip link", () => {
  const skipLink = (page: Page) => page.getByRole("link", { name: "Skip to content" });
  const focused = (locator: Locator) => locator.evaluate((e) => e === document.activeElement);
  /** Drawn, and inside the window: a reader sees it. */
  const shows = (locator: Locator) =>
    locator.evaluate((e) => {
      const box = e.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
    });

  it.each(PAGES.filter(({ path }) => !isReference(path)))(
    "is the first Tab on $name, shows, and takes the focus to its content, the address unchanged",
    async ({ path }) => {
      const page = await open(path, DESKTOP);
      const address = page.url();
      await page.keyboard.press("Tab");
      expect(await focused(skipLink(page)), "the first Tab").toBe(true);
      expect(await shows(skipLink(page)), "shown while it has the focus").toBe(true);
      await page.keyboard.press("Enter");
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("MAIN");
      await page.keyboard.press("Tab");
      const next = await page.evaluate(() => document.activeElement?.closest("main") !== null);
      expect(next, "the next Tab stays in the content").toBe(true);
      expect(page.url()).toBe(address);
    },
  );

  it("on the reference opened at an operation, reaches its content within 3 Tabs, and takes the focus to the operation being read", async () => {
    // The shared dark reference, as the journey loaded it from an operation link: nothing focused yet.
    const page = await view("/reference/index.html", PHONE, "dark");
    const address = page.url();
    const operation = page.locator(`[data-section-id="${operationAnchor(linked)}"]`);
    /** A control of the operation has the focus (not the section itself, which the skip link focuses). */
    const inOperation = () =>
      operation.evaluate((section) => {
        const active = document.activeElement;
        return !!active && section.contains(active) && !active.hasAttribute("data-skip-target");
      });
    let tabs = 0;
    while (tabs < 3 && !(await inOperation())) {
      await page.keyboard.press("Tab");
      tabs++;
      if (await focused(skipLink(page))) await page.keyboard.press("Enter");
    }
    expect(await inOperation(), `after ${tabs} Tabs`).toBe(true);

    // The skip link, the page's first control, focused as a reader scrolled down the page finds it
    // (given the focus, not tabbed back to: Shift+Tab walks back through the operation above).
    const first = await page.evaluate(() =>
      document.querySelector("a[href], button, input, select, textarea, [tabindex]")?.textContent?.trim(),
    );
    expect(first, "the page's first control").toBe("Skip to content");
    await skipLink(page).focus();
    expect(await shows(skipLink(page)), "shown over the scrolled page while it has the focus").toBe(true);
    await page.keyboard.press("Enter");
    expect(
      await operation.evaluate((s) => s.contains(document.activeElement)),
      "the section being read",
    ).toBe(true);
    await page.keyboard.press("Tab");
    expect(await inOperation(), "its first control, one Tab on").toBe(true);
    expect(page.url(), "the address still names the operation").toBe(address);
  });
});

// A browser: widths, line breaks and colours exist only in a laid-out page.
describe("at a phone width: every page", () => widthChecks(PHONE, "dark"));

// A browser: the header's row, the menu button and what it shows are layout and the page's script.
describe("at a phone width", () => {
  it("keeps the header on one compact row", async () => {
    for (const { path } of PAGES) {
      const page = await view(path, PHONE);
      const header = page.locator(".site-header");
      const box = await header.boundingBox();
      expect(box?.height, path).toBeLessThanOrEqual(64);
      const escapees = await header.evaluate((h) => {
        const outer = h.getBoundingClientRect();
        return [...h.querySelectorAll("a, button, input")]
          .filter((e) => e.getClientRects().length > 0)
          .filter((e) => {
            const r = e.getBoundingClientRect();
            return (
              r.top < outer.top - 1 ||
              r.bottom > outer.bottom + 1 ||
              r.right > outer.right + 1 ||
              r.height > 44
            );
          })
          .map((e) => e.textContent?.trim() || e.getAttribute("aria-label") || e.tagName);
      });
      expect(escapees, `${path}: header controls that wrap or stick out`).toEqual([]);
    }
  });

  it("puts the guide's content first and the guide list behind a menu button", async () => {
    const page = await open("/guides/getting-started.html", PHONE);
    const h1 = await page.locator("article h1").boundingBox();
    expect(h1?.y, "the guide's title sits right under the header").toBeLessThan(200);
    const button = page.getByRole("button", { name: /menu/i });
    await button.waitFor({ state: "visible" });
    expect(await button.evaluate((b) => b.tagName)).toBe("BUTTON");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    const controlled = await button.getAttribute("aria-controls");
    expect(controlled).toBeTruthy();
    const menu = page.locator(`[id="${controlled}"]`);
    // The guide lists (the menu's, the sidebar's); the guide's own text may link to a guide too.
    const guideLink = (title: string) => page.locator("nav").getByRole("link", { name: title, exact: true });
    for (const guide of guides)
      expect(await guideLink(guide.title).filter({ visible: true }).count(), guide.title).toBe(0);

    await button.click();
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    for (const guide of guides)
      await menu.getByRole("link", { name: guide.title, exact: true }).waitFor({ state: "visible" });

    await button.click();
    expect(await button.getAttribute("aria-expanded")).toBe("false");
    for (const guide of guides)
      await menu.getByRole("link", { name: guide.title, exact: true }).waitFor({ state: "hidden" });

    // By keyboard too, and Escape closes it again.
    await button.focus();
    await page.keyboard.press("Enter");
    await menu.getByRole("link", { name: guides[1]?.title ?? "", exact: true }).waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    expect(await button.getAttribute("aria-expanded")).toBe("false");
  });

  it("offers the same menu on the landing page and the reference", async () => {
    for (const path of ["/", "/reference/index.html"]) {
      // The shared pages: the menu is closed again (Escape) as the other tests found it.
      const page = await view(path, PHONE);
      const button = page.getByRole("button", { name: /menu/i });
      expect(await button.getAttribute("aria-expanded")).toBe("false");
      await button.click();
      const menu = page.locator(`[id="${await button.getAttribute("aria-controls")}"]`);
      await menu
        .getByRole("link", { name: guides[0]?.title ?? "", exact: true })
        .waitFor({ state: "visible" });
      await menu.getByRole("link", { name: "API reference" }).waitFor({ state: "visible" });
      await page.keyboard.press("Escape");
      await menu.getByRole("link", { name: "API reference" }).waitFor({ state: "hidden" });
    }
  });
});

// A browser: what floats over the text is computed style, and the menu's links are followed by Redoc.
describe("the reference on a phone", () => {
  it.each(SCHEMES)("has one menu button and nothing floating over its text (%s)", async (scheme) => {
    const page = await view("/reference/index.html", PHONE, scheme);
    const floating = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => getComputedStyle(e).position === "fixed" && e.getClientRects().length > 0)
        .filter((e) => getComputedStyle(e).visibility !== "hidden" && !e.closest(".site-header"))
        .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
    );
    expect(floating, "elements fixed over the page").toEqual([]);
    expect(await page.getByRole("button", { name: /menu/i }).filter({ visible: true }).count()).toBe(1);
  });

  it("lists the reference's operations in the site's menu, and opens one from it", async () => {
    // The shared page, back at its top as loaded (no operation in view yet, so the check below
    // can fail): opening an operation only scrolls it and names it in the address.
    const page = await view("/reference/index.html", PHONE);
    expect(await page.getByRole("button", { name: /menu/i }).getAttribute("aria-expanded")).toBe("false");
    await page.evaluate(() => window.scrollTo(0, 0));
    const inView = await page.evaluate((anchor) => {
      const top = document.getElementById(anchor)?.getBoundingClientRect().top ?? Infinity;
      return top >= -4 && top < window.innerHeight / 2;
    }, operationAnchor(checkLimits));
    expect(inView, "the operation is not in view before its link is followed").toBe(false);
    const button = page.getByRole("button", { name: /menu/i });
    await button.click();
    const menu = page.locator(`[id="${await button.getAttribute("aria-controls")}"]`);
    const link = menu.locator(`a[href="#${operationAnchor(checkLimits)}"]`);
    await link.waitFor({ state: "visible" });
    // Every operation, and the introduction's sections, each to a section Redoc rendered.
    const targets = await menu.locator(".menu-reference a").evaluateAll((links) =>
      links.map((a) => {
        const id = decodeURIComponent((a as HTMLAnchorElement).hash.slice(1));
        return { id, found: document.querySelector(`[data-section-id="${CSS.escape(id)}"]`) !== null };
      }),
    );
    for (const op of operations) expect(targets.map((t) => t.id)).toContain(operationAnchor(op));
    expect(
      targets.filter((t) => t.id.startsWith("section/")).length,
      "the introduction's sections",
    ).toBeGreaterThan(2);
    expect(targets.filter((t) => !t.found)).toEqual([]);
    await link.click();
    await operationInView(page, operationAnchor(checkLimits));
    expect(await button.getAttribute("aria-expanded")).toBe("false");
  });
});

// A browser: a column's place is layout.
describe("tables on a phone", () => {
  it("shows every column of the rate-limits table", async () => {
    const page = await view("/guides/rate-limits.html", PHONE);
    const table = page.locator("#content table").first();
    const [tableBox, wrapBox] = await Promise.all([table.boundingBox(), table.locator("..").boundingBox()]);
    expect(tableBox && wrapBox && tableBox.x + tableBox.width, "the table's right edge").toBeLessThanOrEqual(
      (wrapBox?.x ?? 0) + (wrapBox?.width ?? 0) + 0.5,
    );
  });
});

// A browser: the order on screen is layout, and the section being read is marked by the page's script.
describe('a guide\'s "On this page"', () => {
  it("comes before the guide's text on a phone", async () => {
    const page = await view("/guides/tasks.html", PHONE);
    const toc = await page.getByRole("navigation", { name: "On this page" }).boundingBox();
    const firstSection = await page.locator("article h2").first().boundingBox();
    expect(toc?.y ?? Infinity).toBeLessThan(firstSection?.y ?? 0);
    const h1 = await page.locator("article h1").boundingBox();
    expect(h1?.y, "the guide's title stays near the top").toBeLessThan(260);
  });

  it("marks the section being read on a desktop", async () => {
    const page = await open("/guides/tasks.html", DESKTOP);
    const nav = page.getByRole("navigation", { name: "On this page" });
    const links = nav.getByRole("link");
    const third = links.nth(2);
    const id = (await third.getAttribute("href"))?.slice(1) ?? "";
    await page.locator(`[id="${id}"]`).evaluate((h) => h.scrollIntoView());
    await nav.locator(`a[href="#${id}"][aria-current="location"]`).waitFor({ state: "attached" });
    expect(await nav.locator('a[aria-current="location"]').count()).toBe(1);
  });
});

// A browser: Redoc's colours are computed styles of what it renders.
describe("the dark theme at a phone width", () => {
  it("darkens the reference at a phone width too, and keeps the light theme for a light system", async () => {
    const dark = await view("/reference/index.html", PHONE, "dark");
    const darkBody = await colours(dark.locator(".api-content p").first());
    expect(luminance(darkBody.background)).toBeLessThan(0.05);
    const light = await view("/reference/index.html", PHONE, "light");
    const lightBody = await colours(light.locator(".api-content p").first());
    expect(luminance(lightBody.background)).toBeGreaterThan(0.8);
  });
});

// Then the desktop width's.
// A browser: widths, line breaks and colours exist only in a laid-out page.
describe("at a desktop width: every page", () => widthChecks(DESKTOP, "light"));

// A browser: what is visible at a width is layout.
describe("at a desktop width", () => {
  it("shows the guide list beside the guide, with no menu button", async () => {
    const page = await view("/guides/getting-started.html", DESKTOP);
    for (const guide of guides)
      await page
        .locator(".guide-nav")
        .getByRole("link", { name: guide.title, exact: true })
        .waitFor({ state: "visible" });
    expect(await page.getByRole("button", { name: /menu/i }).isVisible()).toBe(false);
  });
});

// A browser: how much of a line a block shows is layout (font, widths, the boxes that clip it).
describe("code samples at a desktop width", () => {
  it.each(SCHEMES)(
    "the reference shows %s samples, curl and TypeScript, 70 characters of a line wide",
    async (scheme) => {
      // The shared page: the curl tab is chosen again at the end, as the other tests found it.
      const page = await view("/reference/index.html", DESKTOP, scheme);
      const section = page.locator(`[data-section-id="${operationAnchor(widestSample)}"]`);
      for (const label of ["curl", "TypeScript", "curl"]) {
        await section.getByRole("tab", { name: label, exact: true }).first().click();
        const pre = section.locator(".react-tabs__tab-panel--selected pre").first();
        await pre.waitFor({ state: "visible" });
        await pre.scrollIntoViewIfNeeded();
        await expectReadableSamples(pre, `${widestSample.operationId}'s ${label} sample`);
      }
    },
  );

  it("the landing page's first call and the guides' shell lines show 70 characters of a line", async () => {
    // The shared pages, only read: their code blocks are drawn as loaded (no script changes them).
    const landing = await view("/", DESKTOP);
    await expectReadableSamples(landing.locator(".first-call pre"), "first call", 2);
    for (const slug of ["getting-started", "tasks"]) {
      const guide = await view(`/guides/${slug}.html`, DESKTOP);
      await expectReadableSamples(guide.locator("figure.code pre"), `${slug}'s code block`);
    }
  });
});

// A browser: colours are computed styles, of the site's CSS and of what Redoc renders.
describe("the dark theme, from the system's setting", () => {
  const expectDark = async (locator: Locator, what: string) => {
    const { color, background } = await colours(locator);
    expect(luminance(background), `${what}: background ${round(background)} is dark`).toBeLessThan(0.05);
    expect(contrast(color, background), `${what}: text ${round(color)} reads on it`).toBeGreaterThanOrEqual(
      4.5,
    );
  };

  it.each(PAGES)("darkens $name", async ({ path }) => {
    const page = await view(path, DESKTOP, "dark");
    await expectDark(page.locator("body"), "the page");
    await expectDark(page.locator(".site-header .brand"), "the header");
    if (path === "/") await expectDark(page.locator(".card").first(), "a product card");
    if (path.startsWith("/guides/")) {
      await expectDark(page.locator("article p").first(), "the guide's text");
      await expectDark(page.locator(".guide-nav a").last(), "the guide list");
      await expectDark(page.locator("table td").first(), "a table");
    }
    if (path.startsWith("/reference/")) {
      await expectDark(page.locator(".menu-content li label").first(), "Redoc's sidebar");
      await expectDark(page.locator(".api-content p").first(), "Redoc's middle panel");
      await expectDark(page.locator(".api-content h2").first(), "an operation's heading");
      await expectDark(page.locator(".api-content table td").first(), "a parameter table");
    }
  });

  it.each(PAGES)("leaves no text of $name hard to read in the dark theme", async ({ path }) => {
    const page = await view(path, DESKTOP, "dark");
    expect(await lowContrastTexts(page)).toEqual([]);
  });

  it("leaves no text of the reference hard to read in the light theme either", async () => {
    const page = await view("/reference/index.html", DESKTOP, "light");
    expect(await lowContrastTexts(page)).toEqual([]);
  });
});

// A browser: an SVG's fill and what is behind it are computed styles.
describe("the reference's controls in the dark theme", () => {
  it('draws the arrow that opens "Authorizations" so it shows', async () => {
    const page = await view("/reference/index.html", DESKTOP, "dark");
    const arrow = page
      .locator("h5", { hasText: /^Authorizations/ })
      .first()
      .locator("xpath=following-sibling::*[local-name()='svg']");
    const fill = await arrow.locator("polygon").evaluate((p) => getComputedStyle(p).fill);
    const { background } = await colours(arrow);
    const n = (fill.match(/[\d.]+/g) ?? []).map(Number);
    const colour: Rgba = [n[0] ?? 0, n[1] ?? 0, n[2] ?? 0, 1];
    expect(contrast(colour, background), `arrow ${fill} on ${round(background)}`).toBeGreaterThanOrEqual(3);
  });
});

// A browser: the boxes' sizes and places are layout.
describe("the landing page's products", () => {
  it("fits each product's box to its operations, however few", async () => {
    const page = await view("/", DESKTOP);
    const slack = await page.locator(".card.product").evaluateAll((cards) =>
      cards.map((card) => {
        const list = card.querySelector("ul")?.getBoundingClientRect();
        return `${card.querySelector("h3")?.textContent}: ${Math.round(card.getBoundingClientRect().bottom - (list?.bottom ?? 0))}`;
      }),
    );
    for (const line of slack) expect(Number(line.split(": ")[1]), line).toBeLessThanOrEqual(24);
    // Every column starts at the same height, and boxes follow each other at the same gap.
    const boxes = await page
      .locator(".card.product")
      .evaluateAll((cards) =>
        cards
          .map((c) => c.getBoundingClientRect())
          .map((r) => ({ x: Math.round(r.x), top: r.top, bottom: r.bottom })),
      );
    const columns = new Map<number, typeof boxes>();
    for (const box of boxes) columns.set(box.x, [...(columns.get(box.x) ?? []), box]);
    expect(columns.size, "products side by side").toBeGreaterThan(1);
    const tops = [...columns.values()].map((column) => Math.min(...column.map((b) => b.top)));
    expect(Math.max(...tops) - Math.min(...tops), "columns' first boxes start level").toBeLessThanOrEqual(1);
    const gaps = [...columns.values()].flatMap((column) =>
      column
        .sort((a, b) => a.top - b.top)
        .slice(1)
        .map((b, i) => Math.round(b.top - (column[i]?.bottom ?? 0))),
    );
    expect(new Set(gaps).size, `gaps between boxes: ${gaps.join(", ")}`).toBeLessThanOrEqual(1);
  });
});

// The tests below load their own pages (the scratch page): they change no shared one.
// A browser: the search runs in the page (assets/search.js), with its keyboard.
describe("one search over the guides and the reference", () => {
  it(`finds the getting-started guide by "${uniqueWord}", a word only it has, and opens it with Enter`, async () => {
    const page = await open("/", DESKTOP);
    const options = await search(page, uniqueWord);
    expect(await options.first().getAttribute("href")).toMatch(/^guides\/getting-started\.html(#|$)/);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/guides\/getting-started\.html/);
    const hash = new URL(page.url()).hash.slice(1);
    if (hash) await page.locator(`[id="${hash}"]`).waitFor({ state: "attached" });
  });

  it("is used with the keyboard: arrows choose, Escape closes", async () => {
    const page = await open("/guides/getting-started.html", DESKTOP);
    const box = searchBox(page);
    await page.keyboard.press("/");
    expect(await box.evaluate((b) => b === document.activeElement)).toBe(true);
    await page.keyboard.type("token");
    const options = page.getByRole("listbox").getByRole("option");
    await options.nth(1).waitFor({ state: "visible" });
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    const second = options.nth(1);
    expect(await second.getAttribute("aria-selected")).toBe("true");
    expect(await box.getAttribute("aria-activedescendant")).toBe(await second.getAttribute("id"));
    await page.keyboard.press("ArrowUp");
    expect(await options.first().getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Escape");
    await page.getByRole("listbox").waitFor({ state: "hidden" });
    expect(await box.getAttribute("aria-expanded")).toBe("false");
  });

  it("says so when nothing matches", async () => {
    const page = await open("/", PHONE);
    const box = searchBox(page);
    await box.fill("zzqxjvk");
    await page.getByText(/no results/i).waitFor({ state: "visible" });
  });
});

// The theme switch of the landing page and a guide; the reference's is in the journey above.
// A browser: the switch is the page's script, the choice is kept in localStorage, colours are computed styles.
describe("the theme switch", () => {
  beforeEach(forget);
  afterEach(forget);

  it.each(PAGES.filter(({ path }) => !isReference(path)))(
    "turns $name dark on a light system, remembers it, follows the system again, and keeps light chosen on a dark system",
    async ({ path }) => {
      const page = await open(path, DESKTOP, "light");
      const choice = page.getByLabel("Colour theme");
      expect(await choice.count(), "one theme switch").toBe(1);
      expect(await choice.inputValue()).toBe("system");
      await choice.selectOption("dark");
      expect(await backgroundLuminance(page, path), "dark when chosen").toBeLessThan(0.05);

      await page.reload();
      expect(await backgroundLuminance(page, path), "dark after a reload").toBeLessThan(0.05);
      expect(await page.getByLabel("Colour theme").inputValue()).toBe("dark");

      await page.getByLabel("Colour theme").selectOption("system");
      expect(await backgroundLuminance(page, path), "the system's light again").toBeGreaterThan(0.8);

      // The other way round: the system turns dark, the reader chooses light (the reference's
      // Redoc renders whatever this switch makes the page's theme: see the journey).
      await show(page, DESKTOP, "dark");
      expect(await backgroundLuminance(page, path), "the system's dark, followed live").toBeLessThan(0.05);
      await page.getByLabel("Colour theme").selectOption("light");
      expect(await backgroundLuminance(page, path), "light chosen on a dark system").toBeGreaterThan(0.8);
    },
  );
});

// Search results: one shared component (assets/search.js, the same markup and styles on every page),
// so one width per theme: the desktop in light, the phone in dark, where a highlight could vanish
// into the background and a snippet could push past a narrow panel. A browser because the snippet is
// built in the page from the index and must read on it.
describe("search results say where they matched", () => {
  const paginated = paginatedOperations(buildModel(bundle));

  it.each(EACH_WIDTH_ONE_THEME)(
    '"pagination" finds the paginated operations and the reference\'s rule, with marked snippets (%s, %s)',
    async (_, viewport, scheme) => {
      const page = await open("/", viewport, scheme);
      const options = await search(page, "pagination");
      const hrefs = await options.evaluateAll((all) => all.map((o) => o.getAttribute("href")));
      expect(paginated.length).toBeGreaterThan(0);
      for (const op of paginated)
        expect(hrefs, op.operationId).toContain(`reference/index.html#${operationAnchor(op)}`);
      const rule = options.filter({ has: page.locator(".search-kind.reference") }).filter({
        has: page.locator(".search-title", { hasText: /^Pagination$/ }),
      });
      expect(await rule.count(), "the reference's own Pagination section").toBe(1);
      expect(await rule.getAttribute("href")).toMatch(/^reference\/index\.html#section\//);

      const marked = [
        (await rule.getAttribute("href")) ?? "",
        ...paginated.map((op) => `reference/index.html#${operationAnchor(op)}`),
      ];
      // Each result's snippet as shown, read in one page call: the list is drawn at once, the
      // snippets with it (assets/search.js), and round trips to the browser cost CPU.
      const snippets = await options.evaluateAll(
        (all, hrefs) =>
          hrefs.map((href) => {
            const results = all.filter((option) => option.getAttribute("href") === href);
            const snippet = results[0]?.querySelector(".search-snippet");
            const box = snippet?.getBoundingClientRect();
            const shown = !!box && box.width > 0 && box.height > 0;
            return {
              href,
              results: results.length,
              shown: shown && !!snippet?.checkVisibility({ visibilityProperty: true }),
              marks: snippet?.querySelectorAll("mark").length ?? 0,
              firstMark: snippet?.querySelector("mark")?.textContent ?? "",
              markup: snippet?.querySelectorAll(":not(mark)").length ?? 0,
              right: box?.right ?? Number.POSITIVE_INFINITY,
            };
          }),
        marked,
      );
      for (const snippet of snippets) {
        expect(snippet.results, `${snippet.href}: one result`).toBe(1);
        expect(snippet.shown, `${snippet.href}: its snippet shows`).toBe(true);
        expect(snippet.marks, snippet.href).toBeGreaterThan(0);
        expect(snippet.firstMark).toMatch(/^paginat/i);
        // Text and <mark> only: nothing from the index becomes markup.
        expect(snippet.markup).toBe(0);
        expect(snippet.right, "the snippet stays inside the page").toBeLessThanOrEqual(viewport.width);
        const mark = await colours(
          options
            .and(page.locator(`[href="${snippet.href}"]`))
            .locator(".search-snippet mark")
            .first(),
        );
        expect(contrast(mark.color, mark.background), "the highlight reads").toBeGreaterThanOrEqual(4.5);
      }
    },
  );
});

// A browser: the menu is the page's script, and scrolling sideways is layout.
describe("the changelog page", () => {
  it("is linked from the menu and does not scroll sideways on a phone (dark)", async () => {
    const page = await open("/", PHONE, "dark");
    await page.getByRole("button", { name: /menu/i }).click();
    await page.locator(".site-nav").getByRole("link", { name: "Changelog" }).click();
    await page.waitForURL(/\/changelog\.html$/);
    await page.locator(".package-changes").first().waitFor({ state: "visible" });
    const { scrollWidth, clientWidth } = await horizontalOverflow(page);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });
});

// A browser: console errors and requests exist only in running pages.
describe("the whole run", () => {
  it("logged no console error and sent no request to another origin", () => {
    expect(consoleErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
  });
});
