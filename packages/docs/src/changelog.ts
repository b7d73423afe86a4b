// The changelog page, from the changesets: the pending ones (.changeset/*.md: front matter of
// package → bump, then the change in Markdown) grouped by package and by bump, and the released
// versions of each package's CHANGELOG.md (as `changeset version` writes it) when there are any.
// Anyone who opens a pull request writes a changeset, so a change's links and images are judged
// before they reach the page (safeLinkHref, localImageSrc).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeHTMLAttribute } from "entities";
import { Marked } from "marked";
import { formatDate } from "./last-updated.js";
import { escapeHtml } from "./layout.js";

export const BUMPS = ["major", "minor", "patch"] as const;
export type Bump = (typeof BUMPS)[number];

export interface Changeset {
  /** The file's name without `.md`: changesets' own id for it. */
  id: string;
  releases: { name: string; type: Bump }[];
  /** The change, in Markdown. */
  summary: string;
  /** When the last commit touched the file, when the build knows (src/last-updated.ts). */
  date?: Date;
}

export interface ReleasedVersion {
  version: string;
  /** The Markdown list of each kind of change, as the CHANGELOG.md has it. */
  changes: { type: Bump; markdown: string }[];
}

export interface PackageChanges {
  name: string;
  pending: Changeset[];
  released: ReleasedVersion[];
}

/** One changeset file; throws, naming the file, on front matter changesets itself would refuse. */
export function parseChangeset(id: string, text: string): Changeset {
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)([\s\S]*)$/.exec(text);
  if (!match)
    throw new Error(`.changeset/${id}.md: no front matter (--- package: bump --- then the change).`);
  const releases: Changeset["releases"] = [];
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    if (!line.trim()) continue;
    const release = /^\s*(["']?)([^"':\s][^"':]*)\1\s*:\s*(["']?)(\w+)\3\s*$/.exec(line);
    const type = release?.[4];
    // "none" is changesets' word for a package the change leaves unreleased: nothing to show.
    if (release && type === "none") continue;
    if (!release || !BUMPS.includes(type as Bump))
      throw new Error(
        `.changeset/${id}.md: "${line.trim()}" is not "<package>": major, minor, patch or none.`,
      );
    releases.push({ name: release[2] ?? "", type: type as Bump });
  }
  return { id, releases, summary: (match[2] ?? "").trim() };
}

/** The pending changesets of a `.changeset` folder (none when it does not exist). */
export function readChangesets(dir: string): Changeset[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith(".md") && file !== "README.md")
    .sort()
    .map((file) => parseChangeset(file.slice(0, -3), readFileSync(join(dir, file), "utf8")));
}

const HEADINGS: Record<string, Bump> = {
  "Major Changes": "major",
  "Minor Changes": "minor",
  "Patch Changes": "patch",
};

/** The released versions of a CHANGELOG.md written by `changeset version`, newest first. */
export function parseChangelog(markdown: string): ReleasedVersion[] {
  const versions: ReleasedVersion[] = [];
  let version: ReleasedVersion | undefined;
  let change: { type: Bump; lines: string[] } | undefined;
  const closeChange = () => {
    if (version && change)
      version.changes.push({ type: change.type, markdown: change.lines.join("\n").trim() });
    change = undefined;
  };
  for (const line of markdown.split(/\r?\n/)) {
    const versionHeading = /^## (\S.*?)\s*$/.exec(line);
    const kindHeading = /^### (\S.*?)\s*$/.exec(line);
    if (versionHeading) {
      closeChange();
      version = { version: versionHeading[1] ?? "", changes: [] };
      versions.push(version);
    } else if (kindHeading && version) {
      closeChange();
      const type = HEADINGS[kindHeading[1] ?? ""];
      if (type) change = { type, lines: [] };
    } else if (change) {
      // "- 1a2b3c4: The change" → "- The change", and "Updated dependencies [1a2b3c4]" without
      // its commits: they are no use to a reader of the site.
      change.lines.push(
        line
          .replace(/^- [0-9a-f]{7,40}: /, "- ")
          .replace(/^(\s*- Updated dependencies) \[[0-9a-f, ]+\]/, "$1"),
      );
    }
  }
  closeChange();
  return versions;
}

/** The changes of every package named by a changeset or with a CHANGELOG.md, by package name. */
export function packageChanges(
  changesets: Changeset[],
  changelogs: { name: string; markdown: string }[],
): PackageChanges[] {
  const byName = new Map<string, PackageChanges>();
  const of = (name: string) => {
    let entry = byName.get(name);
    if (!entry) {
      entry = { name, pending: [], released: [] };
      byName.set(name, entry);
    }
    return entry;
  };
  for (const changeset of changesets)
    for (const release of changeset.releases) of(release.name).pending.push(changeset);
  for (const changelog of changelogs) of(changelog.name).released.push(...parseChangelog(changelog.markdown));
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The CHANGELOG.md of each workspace package that has one: `spec/` and `packages/*`. */
export function readChangelogs(repoRoot: string): { name: string; markdown: string; file: string }[] {
  const packagesDir = join(repoRoot, "packages");
  const dirs = [
    join(repoRoot, "spec"),
    ...(existsSync(packagesDir) ? readdirSync(packagesDir).map((d) => join(packagesDir, d)) : []),
  ];
  return dirs.flatMap((dir) => {
    const file = join(dir, "CHANGELOG.md");
    const manifest = join(dir, "package.json");
    if (!existsSync(file) || !existsSync(manifest)) return [];
    const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string };
    return name ? [{ name, markdown: readFileSync(file, "utf8"), file }] : [];
  });
}

/** The schemes a change may link to; a relative link or a fragment stays on the site, and is allowed too. */
export const LINK_SCHEMES = ["http:", "https:", "mailto:"] as const;

/**
 * The URL a browser makes of an attribute's value, or undefined when it makes none. Node's `URL` is
 * the browser's own parser (WHATWG): it drops tabs and newlines anywhere and control characters
 * around the value, and lower-cases the scheme, as the browser does before it follows a link.
 */
function browserUrl(value: string, base: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

/**
 * A link's destination as it may be written into the page, or undefined when it may not: only
 * http, https and mailto, or relative to the site. Markdown leaves character references in a
 * destination (`&#106;avascript:`) and the browser decodes them, so they are decoded first, judged,
 * and the decoded value is what the page gets (escaped): the browser reads exactly what was judged.
 */
export function safeLinkHref(destination: string): string | undefined {
  const href = decodeHTMLAttribute(destination);
  const url = browserUrl(href, "http://site.invalid/changelog.html");
  return url && (LINK_SCHEMES as readonly string[]).includes(url.protocol) ? href : undefined;
}

/**
 * An image's source when it is a path on the site itself, else undefined: the site works offline,
 * and an image from another host would tell that host who reads the page. A relative path takes
 * the host of the page it is on; anything with a scheme or a host of its own (`//host/x.png`,
 * `\\host\x.png`, `data:`) keeps its own, so resolving against two bases tells them apart.
 */
export function localImageSrc(destination: string): string | undefined {
  const src = decodeHTMLAttribute(destination);
  const a = browserUrl(src, "http://a.invalid/changelog.html");
  const b = browserUrl(src, "http://b.invalid/changelog.html");
  return a?.host === "a.invalid" && b?.host === "b.invalid" ? src : undefined;
}

const changeMarked = new Marked({
  gfm: true,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    // Every kind of link goes through here: inline, by reference, <autolink> and GFM's bare URLs.
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const safe = safeLinkHref(href);
      // A refused link keeps its words, as text: the change still reads.
      if (safe === undefined) return text;
      const titleAttribute = title ? ` title="${escapeHtml(decodeHTMLAttribute(title))}"` : "";
      return `<a href="${escapeHtml(safe)}"${titleAttribute}>${text}</a>`;
    },
    image({ href, title, text, tokens }) {
      const alt = escapeHtml(
        decodeHTMLAttribute(tokens ? this.parser.parseInline(tokens, this.parser.textRenderer) : text),
      );
      const src = localImageSrc(href);
      if (src === undefined)
        return `<span class="image-not-loaded" title="An image from another host, not loaded: the site loads images from itself only">${alt}</span>`;
      const titleAttribute = title ? ` title="${escapeHtml(decodeHTMLAttribute(title))}"` : "";
      return `<img src="${escapeHtml(src)}" alt="${alt}"${titleAttribute}>`;
    },
  },
});

/**
 * The Markdown of a change as HTML: raw HTML in it is shown as text, never run; links go only to
 * safe schemes and images come only from the site.
 */
function renderChange(markdown: string): string {
  return changeMarked.parse(markdown, { async: false });
}

const BUMP_TITLES: Record<Bump, string> = {
  major: "Major changes",
  minor: "Minor changes",
  patch: "Patch changes",
};

/** The id of a package's section (`@platform-api/client` → `platform-api-client`) or of a change on the page. */
export const anchor = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/**
 * The page's main content: each package with its pending changes (by bump, newest first when
 * dates are known) and then its released versions. Everything from the files is escaped.
 */
export function changelogMain(packages: PackageChanges[]): string {
  // Each kind of bump that has changes, under its heading, in major, minor, patch order.
  const bumpGroups = (id: string, groups: { type: Bump; html: string }[]) =>
    BUMPS.map((type) => {
      const html = groups
        .filter((g) => g.type === type && g.html)
        .map((g) => g.html)
        .join("");
      return html ? `<h4 id="${id}-${type}">${BUMP_TITLES[type]}</h4>${html}` : "";
    }).join("");
  // A change named by two packages shows under each: its id has the package's first.
  const pendingItem = (pkgId: string) => (changeset: Changeset) =>
    `<li class="change" id="${pkgId}--${anchor(changeset.id)}">${
      changeset.date
        ? `<p class="change-date"><time datetime="${changeset.date.toISOString()}">${formatDate(changeset.date)}</time></p>`
        : ""
    }${renderChange(changeset.summary)}</li>`;
  const newestFirst = (a: Changeset, b: Changeset) =>
    (b.date?.getTime() ?? 0) - (a.date?.getTime() ?? 0) || a.id.localeCompare(b.id);

  const sections = packages.map((pkg) => {
    const id = anchor(pkg.name);
    const pending = [...pkg.pending].sort(newestFirst);
    const unreleased =
      pending.length > 0
        ? `<h3 id="${id}-unreleased">Not released yet</h3>${bumpGroups(
            `${id}-unreleased`,
            BUMPS.map((type) => {
              const items = pending
                .filter((c) => c.releases.some((r) => r.name === pkg.name && r.type === type))
                .map(pendingItem(id))
                .join("");
              return { type, html: items ? `<ul class="changes">${items}</ul>` : "" };
            }),
          )}`
        : "";
    const released = pkg.released
      .map((version) => {
        const versionId = `${id}-${anchor(version.version)}`;
        return `<h3 id="${versionId}">${escapeHtml(version.version)}</h3>${bumpGroups(
          versionId,
          version.changes.map((c) => ({ type: c.type, html: renderChange(c.markdown) })),
        )}`;
      })
      .join("");
    return `<section class="package-changes" aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(pkg.name)}</h2>${unreleased}${released}</section>`;
  });

  const contents =
    packages.length > 0
      ? `<nav class="changelog-packages" aria-label="Packages"><ul>${packages
          .map((p) => `<li><a href="#${anchor(p.name)}">${escapeHtml(p.name)}</a></li>`)
          .join("")}</ul></nav>`
      : "<p>No change is recorded yet.</p>";
  return `<article class="guide changelog"><h1>Changelog</h1><p>What changed in each package of the platform API's tools: first the changes not released yet (the pending changesets in <code>.changeset/</code>), by kind of version bump, then the released versions from each package's <code>CHANGELOG.md</code>.</p>${contents}${sections.join("")}</article>`;
}
