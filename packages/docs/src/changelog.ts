// The changelog page, from the changesets: the pending ones (.changeset/*.md: front matter of
// package → bump, then the change in Markdown) grouped by package and by bump, and the released
// versions of each package's CHANGELOG.md (as `changeset version` writes it) when there are any.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
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

/** The Markdown of a change as HTML; raw HTML in it is shown as text, never run. */
function renderChange(markdown: string): string {
  const marked = new Marked({
    gfm: true,
    renderer: {
      html({ text }) {
        return escapeHtml(text);
      },
    },
  });
  return marked.parse(markdown, { async: false });
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
