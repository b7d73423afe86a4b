// "Last updated" from git, in-process with fixture repositories: the date of the last commit that
// touched a page's sources in a checkout, and no date at all (no error, nothing wrong) without
// git, outside a repository (a tarball) or in a shallow clone. Then the build with and without one.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../src/build.js";
import { guidesDir } from "../src/guides.js";
import { formatDate, gitHistory, type History, lastUpdatedHtml } from "../src/last-updated.js";
import { builtSite } from "./built-site.js";

const root = mkdtempSync(join(tmpdir(), "docs-history-"));
const repo = join(root, "repo");
const FIRST = "2024-02-03T04:05:06Z";
const SECOND = "2025-06-07T08:09:10Z";

/** git with a fixed identity and the commit's date, never the machine's own settings. */
const git = (cwd: string, args: string[], date = FIRST) =>
  execFileSync("git", args, {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "Docs",
      GIT_AUTHOR_EMAIL: "docs@example.invalid",
      GIT_COMMITTER_NAME: "Docs",
      GIT_COMMITTER_EMAIL: "docs@example.invalid",
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  });

beforeAll(() => {
  mkdirSync(join(repo, "guides"), { recursive: true });
  git(repo, ["init", "-q", "-b", "main"]);
  writeFileSync(join(repo, "guides/a.md"), "# A\n");
  writeFileSync(join(repo, "guides/b.md"), "# B\n");
  writeFileSync(join(repo, "guides/übersicht.md"), "# Ü\n");
  git(repo, ["add", "."]);
  git(repo, ["commit", "-q", "-m", "first"], FIRST);
  writeFileSync(join(repo, "guides/b.md"), "# B, again\n");
  git(repo, ["commit", "-q", "-am", "second"], SECOND);
  writeFileSync(join(repo, "guides/new.md"), "# Not committed\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the last commit of a page's sources", () => {
  it("is the date of the last commit touching them, in a checkout", () => {
    const history = gitHistory(repo);
    expect(history.lastCommit([join(repo, "guides/a.md")])?.toISOString()).toBe(
      new Date(FIRST).toISOString(),
    );
    expect(history.lastCommit(["guides/b.md"])?.toISOString()).toBe(new Date(SECOND).toISOString());
    // Several sources, a folder among them: the latest of them.
    expect(history.lastCommit([join(repo, "guides")])?.toISOString()).toBe(new Date(SECOND).toISOString());
    const each = history.lastCommits([join(repo, "guides")]);
    expect(
      Object.fromEntries(
        [...each].map(([file, date]) => [file.slice(file.lastIndexOf("/") + 1), date.toISOString()]),
      ),
    ).toEqual({
      "a.md": new Date(FIRST).toISOString(),
      "b.md": new Date(SECOND).toISOString(),
      "übersicht.md": new Date(FIRST).toISOString(),
    });
  });

  it("is unknown for a file no commit touched, rather than some other date", () => {
    expect(gitHistory(repo).lastCommit([join(repo, "guides/new.md")])).toBeUndefined();
    expect(gitHistory(repo).lastCommit([join(repo, "guides/never-was.md")])).toBeUndefined();
  });

  it("is unknown outside a repository, as in a tarball", () => {
    const loose = join(root, "tarball");
    mkdirSync(loose);
    writeFileSync(join(loose, "a.md"), "# A\n");
    const history = gitHistory(loose);
    expect(history.lastCommit([join(loose, "a.md")])).toBeUndefined();
    expect(history.lastCommits([loose]).size).toBe(0);
  });

  it("is unknown without git", () => {
    const history = gitHistory(repo, join(root, "no-such-git"));
    expect(history.lastCommit([join(repo, "guides/a.md")])).toBeUndefined();
  });

  it("is unknown in a shallow clone, whose oldest commit seems to touch every file", () => {
    const shallow = join(root, "shallow");
    git(root, ["clone", "-q", "--depth", "1", `file://${repo}`, shallow]);
    expect(gitHistory(shallow).lastCommit([join(shallow, "guides/a.md")])).toBeUndefined();
  });

  it("is written as a date, or not at all", () => {
    expect(formatDate(new Date("2025-06-07T23:59:00Z"))).toBe("7 June 2025");
    expect(lastUpdatedHtml(new Date(SECOND))).toBe(
      `<p class="last-updated">Last updated <time datetime="${new Date(SECOND).toISOString()}">7 June 2025</time></p>`,
    );
    expect(lastUpdatedHtml(undefined)).toBe("");
  });
});

describe("the built pages", () => {
  const read = (dir: string, file: string) => readFileSync(join(dir, file), "utf8");
  const embedded = (html: string) =>
    JSON.parse(
      /<script id="redoc-spec" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "{}",
    );

  it("say when their sources last changed, as git says, where the build runs in a checkout", () => {
    // The site the other tests read, built from this checkout, if it is one: the guide's date is
    // exactly git's for its Markdown; without a usable history, there is none.
    const dir = builtSite();
    const expected = gitHistory(guidesDir).lastCommit([join(guidesDir, "pagination.md")]);
    const html = read(dir, "guides/pagination.html");
    if (expected) expect(html).toContain(lastUpdatedHtml(expected));
    else expect(html).not.toContain(`class="last-updated"`);
  });

  it("show a date from the history given, and leave it out cleanly where there is none", () => {
    const out = mkdtempSync(join(tmpdir(), "docs-dated-"));
    try {
      const when = new Date(SECOND);
      // A history of the guides and the description's files only: the landing page (its template
      // too) and the changelog have none here.
      const partial: History = {
        lastCommit: (paths) =>
          paths.every((p) => p.startsWith(guidesDir) || p.includes("/spec/")) ? when : undefined,
        lastCommits: () => new Map(),
      };
      buildSite(out, undefined, { history: partial });
      expect(read(out, "guides/tasks.html")).toContain(lastUpdatedHtml(when));
      const reference = embedded(read(out, "reference/index.html"));
      expect(String(reference.info.description).startsWith(lastUpdatedHtml(when))).toBe(true);
      for (const page of ["index.html", "changelog.html"])
        expect(read(out, page), page).not.toContain(`class="last-updated"`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
