// The built site: its pages, the reference's embedded description, and nothing that would load
// from another origin; and a build that copies no file from outside the package.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBundle, loadModel } from "@platform-api/spec";
import { decodeHTML } from "entities";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuildResult, buildSite } from "../src/build.js";
import { anchor, readChangesets } from "../src/changelog.js";
import { GCORE_PYTHON } from "../src/gcore-python.js";
import { GUIDE_ORDER, loadGuides } from "../src/guides.js";
import { listOperations } from "../src/operations.js";
import { packageFile } from "../src/package-files.js";

const bundle = loadBundle();
let out: string;
let result: BuildResult;

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "docs-build-"));
  result = buildSite(out);
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

const read = (file: string) => readFileSync(join(out, file), "utf8");

/** The text an HTML fragment shows: its tags dropped, its character references decoded. */
const textOf = (fragment: string) => decodeHTML(fragment.replace(/<[^>]*>/g, ""));

/** The inner HTML of each element `<tag ...attributes...>` (the opening tag matched by `opening`), none nested in its like. */
function elements(html: string, tag: string, opening = ""): string[] {
  return [...html.matchAll(new RegExp(`<${tag}\\b${opening}[^>]*>([\\s\\S]*?)</${tag}>`, "g"))].map(
    (m) => m[1] ?? "",
  );
}

/** A Content-Security-Policy's directives, each with its sources. */
function parseCsp(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name = "", ...sources]) => [name, sources]),
  );
}

function files(dir: string, prefix = ""): string[] {
  return readdirSync(join(out, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

describe("built site", () => {
  it("has a landing page, every guide and the reference", () => {
    expect(result.pages.sort()).toEqual(
      [
        "index.html",
        "changelog.html",
        "reference/index.html",
        ...GUIDE_ORDER.map((g) => `guides/${g}.html`),
      ].sort(),
    );
    expect(result.operations).toBe(loadModel().operations.length);
  });

  it("embeds the description with a curl and a TypeScript sample on every operation, a Python one where gcore-python has a method", () => {
    const html = read("reference/index.html");
    const json =
      /<script id="redoc-spec" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    const doc = JSON.parse(json);
    const ops = listOperations(doc);
    expect(ops.map((o) => o.operationId)).toEqual(listOperations(bundle).map((o) => o.operationId));
    for (const op of ops)
      expect((op.node["x-codeSamples"] as { label: string }[]).map((s) => s.label)).toEqual([
        "curl",
        "TypeScript",
        ...(GCORE_PYTHON.methods[op.operationId] ? ["Python"] : []),
      ]);
  });

  it("offers the untouched description for download", () => {
    expect(JSON.parse(read("reference/openapi.json"))).toEqual(bundle);
  });

  it("links the landing page to every operation and every guide", () => {
    const html = read("index.html");
    for (const op of listOperations(bundle)) expect(html).toContain(`/operation/${op.operationId}"`);
    for (const slug of GUIDE_ORDER) expect(html).toContain(`href="guides/${slug}.html"`);
  });

  it("shows each guide's summary as read, no Markdown: on its landing card, its links followed from there, and in its page's description", () => {
    const landing = read("index.html");
    const cards = elements(landing, "article", ' class="card guide-card"');
    expect(cards).toHaveLength(GUIDE_ORDER.length);
    const guides = loadGuides();
    // A summary linking elsewhere, so the check below has a link to follow (guides/conformance-fuzz.md).
    expect(guides.some((g) => /\]\((guide|ref):/.test(g.summary))).toBe(true);
    for (const [i, guide] of guides.entries()) {
      const summary = elements(cards[i] ?? "", "p")[0] ?? "";
      expect(textOf(summary), guide.slug).not.toMatch(/\]\(|`/);
      for (const [, href = ""] of summary.matchAll(/<a href="([^"]*)"/g)) {
        const [file = "", fragment] = href.split("#");
        expect(existsSync(join(out, file)), `${guide.slug}: ${href}`).toBe(true);
        // The reference's anchors exist only once Redoc has rendered it; a guide's are in its HTML.
        if (fragment && file.startsWith("guides/"))
          expect(read(file), `${guide.slug}: ${href}`).toContain(`id="${fragment}"`);
      }
      const meta = /<meta name="description" content="([^"]*)"/.exec(read(`guides/${guide.slug}.html`));
      expect(decodeHTML(meta?.[1] ?? ""), guide.slug).not.toMatch(/\]\(|`/);
    }
    expect(landing).not.toContain("](guide:");
    expect(landing).not.toContain("](ref:");
  });

  // What the pages say is in their HTML, before any script runs: read here, not in a browser.
  it("titles the landing page, links each operation once and shows the first call in curl and TypeScript", () => {
    const html = read("index.html");
    expect(elements(html, "h1").map(textOf)).toEqual([loadModel().title]);
    for (const op of listOperations(bundle)) {
      const links = [...html.matchAll(/<a\b[^>]*\shref="([^"]*)"/g)].filter((m) =>
        m[1]?.endsWith(`/operation/${op.operationId}`),
      );
      expect(links, op.operationId).toHaveLength(1);
    }
    const [firstCall = ""] = elements(html, "section", ' class="first-call"');
    const figures = elements(firstCall, "figure", ' class="code"');
    expect(figures.map((f) => textOf(elements(f, "figcaption")[0] ?? ""))).toEqual(["curl", "TypeScript"]);
  });

  it("titles every guide and marks it, and only it, as the current page of the guide list", () => {
    for (const guide of loadGuides()) {
      const html = read(`guides/${guide.slug}.html`);
      const [article = ""] = elements(html, "article");
      expect(elements(article, "h1").map(textOf), guide.slug).toEqual([guide.title]);
      const [nav = ""] = elements(html, "nav", ' class="guide-nav"');
      const current = [...nav.matchAll(/<a\b[^>]*aria-current="page"[^>]*>([\s\S]*?)<\/a>/g)];
      expect(
        current.map((m) => textOf(m[1] ?? "")),
        guide.slug,
      ).toEqual([guide.title]);
    }
  });

  it("loads every script, style and image from the site itself", () => {
    const pages = files(".").filter((f) => f.endsWith(".html"));
    for (const page of pages) {
      const html = read(page);
      const urls = [
        ...html.matchAll(/<(?:script|link|img|iframe|source)\b[^>]*?\s(?:src|href)="([^"]+)"/g),
      ].map((m) => m[1]);
      expect(urls.length, page).toBeGreaterThan(0);
      for (const url of urls) expect(url, `${page} loads ${url}`).not.toMatch(/^(https?:)?\/\//);
      for (const url of urls.filter((u) => !u?.startsWith("data:")))
        expect(existsSync(join(out, page, "..", url ?? "")), `${page}: ${url} exists`).toBe(true);
    }
    expect(read("assets/redoc.standalone.js")).not.toContain("cdn.redoc.ly");
  });

  it("gives every page a Content-Security-Policy: nothing from another origin, no inline script", () => {
    // In the page itself, as the site is opened from disk too (no server to send a header).
    for (const page of result.pages) {
      const html = read(page);
      const policies = [
        ...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/g),
      ].map((m) => m[1] ?? "");
      expect(policies, page).toHaveLength(1);
      // Before any element that loads something: a policy only governs what follows it.
      expect(html.indexOf("Content-Security-Policy"), page).toBeLessThan(
        html.search(/<(script|link|img|style)\b/),
      );
      const policy = parseCsp(policies[0] ?? "");
      expect(policy.get("default-src"), page).toEqual(["'none'"]);
      for (const directive of ["script-src", "font-src", "manifest-src"])
        expect(policy.get(directive), `${page}: ${directive}`).toEqual(["'self'"]);
      // Only the reference's "Try it" console calls out: loopback (the simulator) and https.
      expect(policy.get("connect-src"), `${page}: connect-src`).toEqual(
        page === "reference/index.html"
          ? ["'self'", "http://127.0.0.1:*", "http://localhost:*", "https:"]
          : ["'self'"],
      );
      // Redoc's icons are data: images (they load nothing).
      expect(policy.get("img-src"), page).toEqual(["'self'", "data:"]);
      // Redoc (styled-components) writes <style> elements and style attributes as it renders.
      expect(policy.get("style-src"), page).toEqual(["'self'", "'unsafe-inline'"]);
      expect(policy.get("base-uri"), page).toEqual(["'none'"]);
      expect(policy.get("form-action"), page).toEqual(["'none'"]);
      // The policy allows no inline script: none may be there (a JSON data block is not run).
      for (const script of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g))
        if (!/\bsrc="/.test(script[1] ?? ""))
          expect(script[1], `${page}: inline script ${script[2]?.slice(0, 60)}`).toMatch(
            /type="application\/json"/,
          );
      expect(html, page).not.toMatch(/<[^>]+\son[a-z]+=/i);
    }
  });

  it("gives the dark theme one set of colours, for the system's setting and for the reader's choice", () => {
    // Each colour is declared once, as light-dark(), and color-scheme (the system's, or data-theme's)
    // picks the side: a second declaration of a variable (a dark set for one of the two ways to
    // dark) would let the chosen dark theme drift from the system's.
    const css = read("assets/site.css").replace(/\/\*[\s\S]*?\*\//g, "");
    const names = [...css.matchAll(/(--[\w-]+):[^;]+;/g)].map((declaration) => declaration[1]);
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(css.match(/light-dark\(/g)?.length).toBeGreaterThan(10);
  });

  it("builds the changelog from the repository's changesets, linked from every page's navigation", () => {
    const html = read("changelog.html");
    const changesets = readChangesets(new URL("../../../.changeset/", import.meta.url).pathname);
    expect(changesets.length).toBeGreaterThan(0);
    for (const changeset of changesets)
      for (const release of changeset.releases) {
        const section = html.slice(html.indexOf(`<h2 id="${anchor(release.name)}"`)).split("</section>")[0];
        expect(section, `${changeset.id} under ${release.name}`).toContain(
          `id="${anchor(release.name)}--${anchor(changeset.id)}"`,
        );
      }
    for (const page of result.pages)
      expect(read(page), page).toMatch(/<nav class="site-nav"[^>]*>.*href="(\.\.\/)?changelog\.html"/);
  });

  it("cleans the output folder first", () => {
    // A page left from an earlier build (a guide since renamed) must not survive a rebuild.
    writeFileSync(join(out, "guides/renamed-guide.html"), "<!doctype html>");
    buildSite(out);
    expect(files(".").filter((f) => f.endsWith(".html"))).toHaveLength(result.pages.length);
  });
});

// A committed symbolic link is copied as the file it points to: `assets/passwd.css -> /etc/passwd`
// would publish that file with the site. The links are made here, in a temporary copy of the
// package's layout, never in the repository.
describe("files outside the package", () => {
  let root: string;
  let pkg: string;
  let siteOut: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "docs-links-"));
    pkg = join(root, "docs");
    siteOut = join(root, "dist");
    mkdirSync(join(pkg, "assets"), { recursive: true });
    mkdirSync(join(pkg, "guides"), { recursive: true });
    writeFileSync(join(root, "secret.txt"), "root:x:0:0:root:/root:/bin/bash\n");
    writeFileSync(join(pkg, "assets/site.css"), "body {}\n");
    for (const slug of GUIDE_ORDER) writeFileSync(join(pkg, `guides/${slug}.md`), `# ${slug}\n\nText.\n`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const build = () => buildSite(siteOut, bundle, { packageDir: pkg });

  it("refuses an asset that links outside the package, naming it, and copies nothing", () => {
    const link = join(pkg, "assets/passwd.css");
    symlinkSync(join(root, "secret.txt"), link);
    try {
      expect(build).toThrow(/assets\/passwd\.css links to .*secret\.txt, outside the docs package/);
      expect(existsSync(join(siteOut, "assets/passwd.css"))).toBe(false);
    } finally {
      rmSync(link);
    }
  });

  it("follows a link to another file of the package", () => {
    const alias = join(pkg, "assets/alias.css");
    symlinkSync("site.css", alias);
    try {
      expect(packageFile(pkg, alias)).toBe(realpathSync(join(pkg, "assets/site.css")));
    } finally {
      rmSync(alias);
    }
  });

  it("refuses a guide that links outside the package", () => {
    const guide = join(pkg, "guides/tasks.md");
    rmSync(guide);
    symlinkSync("../../secret.txt", guide);
    try {
      expect(build).toThrow(/guides\/tasks\.md links to .*secret\.txt, outside the docs package/);
    } finally {
      rmSync(guide);
      writeFileSync(guide, "# Tasks\n\nText.\n");
    }
  });

  it("refuses an assets folder that is itself a link out of the package", () => {
    const outside = join(root, "elsewhere");
    mkdirSync(outside);
    writeFileSync(join(outside, "site.css"), "body {}\n");
    rmSync(join(pkg, "assets"), { recursive: true });
    symlinkSync(outside, join(pkg, "assets"));
    try {
      expect(build).toThrow(/assets\/site\.css links to .*elsewhere.*, outside the docs package/);
    } finally {
      rmSync(join(pkg, "assets"));
      mkdirSync(join(pkg, "assets"));
      writeFileSync(join(pkg, "assets/site.css"), "body {}\n");
    }
  });
});
