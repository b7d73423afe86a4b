// "Last updated" on each page, from git: the date of the last commit that touched the page's
// sources (a guide's Markdown, the description's files). Only a full checkout knows it: without
// git, outside a repository (a tarball) or in a shallow clone (whose oldest commit seems to touch
// every file), there is no date, and the page says nothing rather than something wrong.
import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

export interface History {
  /** When the last commit touching any of these paths (files or folders) was made; undefined if unknown. */
  lastCommit(paths: string[]): Date | undefined;
  /** For each file under these paths that a commit touched, when the last such commit was made (absolute paths). */
  lastCommits(paths: string[]): Map<string, Date>;
}

/** No history: every page goes without a date. */
export const NO_HISTORY: History = { lastCommit: () => undefined, lastCommits: () => new Map() };

/**
 * The history of the git checkout holding `dir`, or NO_HISTORY when there is none to trust: `git`
 * missing or failing, `dir` outside a repository, or a shallow clone. `git` is the command to run.
 */
export function gitHistory(dir: string, git = "git"): History {
  // Where the repository is comes from `dir` alone, not from a GIT_DIR the build inherited.
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_OPTIONAL_LOCKS: "0" };
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CEILING_DIRECTORIES"])
    delete env[name];
  const run = (args: string[]) =>
    execFileSync(git, ["-C", dir, ...args], {
      encoding: "utf8",
      env,
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    });
  let top: string;
  try {
    const [root, shallow] = run(["rev-parse", "--show-toplevel", "--is-shallow-repository"])
      .trim()
      .split("\n");
    if (!root || shallow !== "false") return NO_HISTORY;
    top = root;
  } catch {
    return NO_HISTORY;
  }
  // git wants paths as the repository sees them: absolute ones through symlinks resolved.
  const pathspecs = (paths: string[]) =>
    paths.map((p) => {
      const absolute = isAbsolute(p) ? p : resolve(dir, p);
      return existsSync(absolute) ? realpathSync(absolute) : absolute;
    });
  const date = (iso: string | undefined) => {
    const parsed = iso ? new Date(iso) : undefined;
    return parsed && !Number.isNaN(parsed.getTime()) ? parsed : undefined;
  };
  return {
    lastCommit(paths) {
      if (paths.length === 0) return undefined;
      try {
        return date(run(["log", "-1", "--format=%cI", "--", ...pathspecs(paths)]).trim());
      } catch {
        return undefined;
      }
    },
    lastCommits(paths) {
      const dates = new Map<string, Date>();
      if (paths.length === 0) return dates;
      let log: string;
      try {
        // quotePath off: a name with non-ASCII letters comes as it is, not as quoted octal escapes.
        log = run([
          "-c",
          "core.quotePath=false",
          "log",
          "--format=%x01%cI",
          "--name-only",
          "--",
          ...pathspecs(paths),
        ]);
      } catch {
        return dates;
      }
      // Newest first: a file's first appearance is its last commit.
      for (const commit of log.split("\x01").slice(1)) {
        const [when, ...files] = commit.split("\n");
        const at = date(when?.trim());
        if (!at) continue;
        for (const file of files.map((f) => f.trim()).filter(Boolean)) {
          const absolute = join(top, file);
          if (!dates.has(absolute)) dates.set(absolute, at);
        }
      }
      return dates;
    },
  };
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** A date as the pages write it, in UTC so a build says the same wherever it runs: "25 November 2026". */
export const formatDate = (date: Date) =>
  `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;

/** The page's "Last updated" line, or nothing when the date is unknown. */
export function lastUpdatedHtml(date: Date | undefined): string {
  if (!date) return "";
  return `<p class="last-updated">Last updated <time datetime="${date.toISOString()}">${formatDate(date)}</time></p>`;
}
