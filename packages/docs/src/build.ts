// Builds the site into dist/: the landing page, the guides and the API reference (Redoc), with
// every script, style and image served from the site itself so it works offline.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { buildModel, loadBundle } from "@platform-api/spec";
import { changelogMain, packageChanges, readChangelogs, readChangesets } from "./changelog.js";
import { CONSOLE_TARGET_FILE, consoleCspMeta, consoleDataScript, NO_CONSOLE_TARGET } from "./console.js";
import {
  expandSpecTables,
  type Guide,
  type LinkTargets,
  loadGuides,
  outline,
  renderMarkdown,
} from "./guides.js";
import { landingMain, tagGroups } from "./landing.js";
import { gitHistory, type History, lastUpdatedHtml } from "./last-updated.js";
import {
  escapeHtml,
  header,
  type PageLink,
  page,
  REFERENCE_MAIN_ID,
  type SiteNav,
  sharedHead,
  sharedScripts,
} from "./layout.js";
import { isObject, type Json, listOperations, type Operation } from "./operations.js";
import { packageFile } from "./package-files.js";
import {
  introductionSections,
  operationAnchor,
  REDOC_OPTIONS,
  redocThemes,
  referenceDocument,
} from "./reference.js";
import {
  descriptionSectionEntries,
  guideEntries,
  markdownText,
  referenceEntries,
  type SearchEntry,
  searchIndexScript,
} from "./search-index.js";

const require = createRequire(import.meta.url);
const packageDir = new URL("..", import.meta.url).pathname;
export const defaultOutDir = join(packageDir, "dist");
/** The repository: its changesets and its packages' CHANGELOG.md make the changelog page. */
const repoRoot = join(packageDir, "../..");
/** The description's own files (not its bundle): what the reference's "Last updated" follows. */
const specDir = dirname(require.resolve("@platform-api/spec/package.json"));
const specSources = ["openapi.yaml", "paths", "components", "platform-facts.yaml"].map((f) =>
  join(specDir, f),
);

/** Redoc's sidebar shows its maker's logo from a CDN; the site serves an empty image instead. */
const REDOC_LOGO_URL = "https://cdn.redoc.ly/redoc/logo-mini.svg";
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E";

export interface BuildResult {
  outDir: string;
  pages: string[];
  operations: number;
  unspecifiedNotes: number;
}

export interface BuildOptions {
  /** Where each page's "Last updated" comes from: by default the git checkout the build runs in, if any. */
  history?: History;
  /** The folder of pending changesets (default: the repository's `.changeset`). */
  changesetDir?: string;
  /** The packages' released changes (default: the CHANGELOG.md of each of the repository's packages). */
  changelogs?: { name: string; markdown: string; file: string }[];
  /** The folder whose `assets/` and `guides/` make the site (default: this package). */
  packageDir?: string;
}

export function buildSite(
  outDir = defaultOutDir,
  bundle: Json = loadBundle(),
  options: BuildOptions = {},
): BuildResult {
  const history = options.history ?? gitHistory(packageDir);
  const sourceDir = options.packageDir ?? packageDir;
  // The site's own files are checked before the last build is removed: a refused one leaves it.
  const assets = siteAssets(sourceDir);
  const guides = loadGuides(join(sourceDir, "guides"), sourceDir);
  const themes = redocThemes(readFileSync(assetFile(assets, "site.css"), "utf8"));
  rmSync(outDir, { recursive: true, force: true });
  for (const dir of ["assets", "guides", "reference"]) mkdirSync(join(outDir, dir), { recursive: true });
  const { title, version: specVersion } = buildModel(bundle);
  const pages: string[] = [];
  const site: Site = {
    bundle,
    history,
    sourceDir,
    guides,
    themes,
    title,
    specVersion,
    operations: new Map(listOperations(bundle).map((op) => [op.operationId, op])),
    write: (file, content) => {
      writeFileSync(join(outDir, file), content);
      if (file.endsWith(".html")) pages.push(file);
    },
    guideLinks: (current) =>
      guides.map((g) => ({ href: `${g.slug}.html`, title: g.title, current: g === current })),
  };

  copyAssets(assets, outDir);
  const searchEntries = writeGuides(site);
  writeLanding(site);
  writeChangelog(site, options);
  const reference = writeReference(site);
  writeFileSync(join(outDir, "reference/openapi.json"), `${JSON.stringify(bundle, null, 2)}\n`);
  writeFileSync(join(outDir, CONSOLE_TARGET_FILE), `${JSON.stringify(NO_CONSOLE_TARGET)}\n`);
  searchEntries.push(
    ...referenceEntries(bundle, [...site.operations.values()]),
    ...descriptionSectionEntries(reference.doc),
  );
  writeFileSync(join(outDir, "assets/search-index.js"), searchIndexScript(searchEntries));

  return {
    outDir,
    pages,
    operations: site.operations.size,
    unspecifiedNotes: reference.notes.length,
  };
}

/** What every page of one build is made from, and where it goes. */
interface Site {
  bundle: Json;
  history: History;
  /** The folder whose `guides/` the guides were read from. */
  sourceDir: string;
  guides: Guide[];
  /** Redoc's themes, in the colours of the site.css the site serves. */
  themes: ReturnType<typeof redocThemes>;
  title: string;
  specVersion: string;
  operations: Map<string, Operation>;
  /** Writes a file of the site (a path inside the output folder); an HTML one is a page. */
  write: (file: string, content: string) => void;
  /** The guide list of the site's menu, `current` marked. */
  guideLinks: (current?: Guide) => PageLink[];
}

/** Every guide's page; what the search index holds of them. */
function writeGuides(site: Site): SearchEntry[] {
  const { bundle, guides, operations } = site;
  const targets: LinkTargets = {
    operationIds: new Set(operations.keys()),
    guideSlugs: new Set(guides.map((g) => g.slug)),
    // Unknown ids never get here: renderMarkdown refuses them first.
    operationHref: (id) => {
      const op = operations.get(id);
      return op ? `../reference/index.html#${operationAnchor(op)}` : "#";
    },
  };
  const searchEntries: SearchEntry[] = [];
  for (const guide of guides) {
    const where = `guides/${guide.slug}.md`;
    const markdown = expandSpecTables(guide.markdown, bundle, where);
    const html = renderMarkdown(markdown, targets, where);
    searchEntries.push(...guideEntries(guide, html));
    const updated = site.history.lastCommit([join(site.sourceDir, "guides", `${guide.slug}.md`)]);
    site.write(
      `guides/${guide.slug}.html`,
      guidePage(guide, html, outline(markdown), guides, site.guideLinks(guide), site.specVersion, updated),
    );
  }
  return searchEntries;
}

function writeLanding(site: Site): void {
  const { bundle } = site;
  site.write(
    "index.html",
    page({
      title: `${site.title} documentation`,
      description: isObject(bundle.info) ? String(bundle.info.summary ?? "") : "",
      root: "",
      section: "home",
      main: landingMain(bundle, site.guides),
      guides: site.guideLinks(),
      specVersion: site.specVersion,
      // The landing page is its template and what it shows of the description.
      lastUpdated: lastUpdatedHtml(
        site.history.lastCommit([join(packageDir, "src/landing.ts"), ...specSources]),
      ),
    }),
  );
}

function writeChangelog(site: Site, options: BuildOptions): void {
  const changesetDir = options.changesetDir ?? join(repoRoot, ".changeset");
  const changelogs = options.changelogs ?? readChangelogs(repoRoot);
  const changesets = readChangesets(changesetDir);
  const dates = site.history.lastCommits([changesetDir]);
  for (const changeset of changesets) changeset.date = dates.get(join(changesetDir, `${changeset.id}.md`));
  site.write(
    "changelog.html",
    page({
      title: "Changelog · Platform API",
      description: "What changed in each package: the pending changesets and the released versions.",
      root: "",
      section: "changelog",
      main: changelogMain(packageChanges(changesets, changelogs)),
      guides: site.guideLinks(),
      specVersion: site.specVersion,
      lastUpdated: lastUpdatedHtml(site.history.lastCommit([changesetDir, ...changelogs.map((c) => c.file)])),
    }),
  );
}

/** The reference's page: the description as Redoc shows it, and the site's menu of its sections. */
function writeReference(site: Site): ReturnType<typeof referenceDocument> {
  const { bundle, operations } = site;
  const reference = referenceDocument(bundle);
  const referenceUpdated = lastUpdatedHtml(site.history.lastCommit(specSources));
  // Redoc shows it under the reference's title, first in the introduction.
  if (referenceUpdated && isObject(reference.doc.info))
    reference.doc.info.description = `${referenceUpdated}\n\n${String(reference.doc.info.description ?? "")}`;
  const referenceMenu = [
    {
      name: "Introduction",
      links: introductionSections(reference.doc).map((s) => ({ href: `#${s.anchor}`, title: s.title })),
    },
    ...tagGroups(bundle).map((group) => ({
      name: group.name,
      links: [...operations.values()]
        .filter((op) => op.tags.some((t) => group.tags.includes(t)))
        .map((op) => ({ href: `#${operationAnchor(op)}`, title: op.summary })),
    })),
  ].filter((group) => group.links.length > 0);
  site.write(
    "reference/index.html",
    referencePage(reference.doc, site, {
      guides: site.guideLinks(),
      reference: referenceMenu,
    }),
  );
  return reference;
}

function guidePage(
  guide: Guide,
  html: string,
  sections: { id: string; title: string }[],
  guides: Guide[],
  links: PageLink[],
  specVersion: string,
  updated: Date | undefined,
): string {
  // Before the guide's text: on a phone it comes first, folded (assets/site.js), and on a wide
  // screen the stylesheet places it in the right-hand column, marking the section being read.
  const onThisPage =
    sections.length > 1
      ? `<nav class="on-this-page" aria-label="On this page"><details open><summary class="nav-title">On this page</summary><ul>${sections
          .map((s) => `<li><a href="#${s.id}">${escapeHtml(s.title)}</a></li>`)
          .join("")}</ul></details></nav>`
      : "";
  const index = guides.indexOf(guide);
  const previous = guides[index - 1];
  const next = guides[index + 1];
  const pager = `<nav class="pager" aria-label="More guides">${
    previous
      ? `<a class="prev" href="${previous.slug}.html"><span>Previous</span>${escapeHtml(previous.title)}</a>`
      : "<span></span>"
  }${next ? `<a class="next" href="${next.slug}.html"><span>Next</span>${escapeHtml(next.title)}</a>` : ""}</nav>`;
  return page({
    title: `${guide.title} · Platform API guides`,
    // What a search engine shows of the page: its summary as read, no Markdown.
    description: markdownText(guide.summary),
    root: "../",
    section: "guides",
    guides: links,
    sidebar: true,
    main: `${onThisPage}<article class="guide">${html}${pager}</article>`,
    specVersion,
    lastUpdated: lastUpdatedHtml(updated),
  });
}

function referencePage(doc: Json, { title, guides, themes }: Site, nav: SiteNav): string {
  // `</script` inside the JSON would end the script element early.
  const json = JSON.stringify(doc).replace(/</g, "\\u003c");
  const options = JSON.stringify(REDOC_OPTIONS).replace(/</g, "\\u003c");
  const themesJson = JSON.stringify(themes).replace(/</g, "\\u003c");
  const guideLinks = guides
    .map((g) => `<a href="../guides/${g.slug}.html">${escapeHtml(g.title)}</a>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${consoleCspMeta()}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · ${escapeHtml(title)}</title>
${sharedHead("../")}
<link rel="stylesheet" href="../assets/console.css">
</head>
<body class="section-reference">
${header("../", "reference", nav)}
<main id="${REFERENCE_MAIN_ID}">
<noscript><p class="noscript">The API reference needs JavaScript. The description itself: <a href="openapi.json">openapi.json</a>. Guides: ${guideLinks}</p></noscript>
<div id="redoc"></div>
</main>
<script id="redoc-spec" type="application/json">${json}</script>
<script id="redoc-options" type="application/json">${options}</script>
<script id="redoc-themes" type="application/json">${themesJson}</script>
<script src="../assets/redoc.standalone.js"></script>
<script src="../assets/reference.js"></script>
<script src="../assets/reference-a11y.js"></script>
${consoleDataScript(doc)}
<script src="../assets/console.js"></script>
${sharedScripts("../")}
</body>
</html>
`;
}

/** The package's assets/ as the site serves them: each name with its real path, inside the package. */
function siteAssets(sourceDir: string): { name: string; file: string }[] {
  const assets = join(sourceDir, "assets");
  // search-terms.d.ts types the shared tokenizer for the build; the site has no use for it.
  return readdirSync(assets)
    .filter((f) => !f.endsWith(".d.ts"))
    .map((name) => ({ name, file: packageFile(sourceDir, join(assets, name)) }));
}

function assetFile(assets: { name: string; file: string }[], name: string): string {
  const asset = assets.find((a) => a.name === name);
  if (!asset) throw new Error(`assets/${name} does not exist: the site's pages need it.`);
  return asset.file;
}

function copyAssets(assets: { name: string; file: string }[], outDir: string): void {
  for (const { name, file } of assets) copyFileSync(file, join(outDir, "assets", name));

  const redocDir = dirname(require.resolve("redoc/package.json"));
  const bundle = readFileSync(join(redocDir, "bundles/redoc.standalone.js"), "utf8");
  const occurrences = bundle.split(REDOC_LOGO_URL).length - 1;
  if (occurrences !== 1)
    throw new Error(
      `Expected Redoc's bundle to load its logo from ${REDOC_LOGO_URL} exactly once, found ${occurrences}; ` +
        "update src/build.ts for this Redoc version so the page still makes no request to another origin.",
    );
  writeFileSync(join(outDir, "assets/redoc.standalone.js"), bundle.replace(REDOC_LOGO_URL, EMPTY_IMAGE));
  copyFileSync(
    join(redocDir, "bundles/redoc.standalone.js.LICENSE.txt"),
    join(outDir, "assets/redoc.standalone.js.LICENSE.txt"),
  );
  // MiniSearch's browser build (it sets `MiniSearch`), which loads the index the build wrote.
  // (Its package exports no package.json: its main file is dist/cjs/index.cjs.) A UMD file is
  // CommonJS to Node: in this "type": "module" package it is named .cjs, as publint asks; a browser
  // runs a classic script whatever its name.
  const minisearchDir = join(dirname(require.resolve("minisearch")), "../..");
  copyFileSync(join(minisearchDir, "dist/umd/index.js"), join(outDir, "assets/minisearch.cjs"));
  copyFileSync(join(minisearchDir, "LICENSE.txt"), join(outDir, "assets/minisearch.LICENSE.txt"));
}
