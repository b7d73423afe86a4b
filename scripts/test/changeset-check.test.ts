// The release gate on a throw-away repository with four packages: a package that changed needs a
// changeset naming it, unless only its tests or docs changed. The repository is made and committed
// once; each test changes a copy of its own (files and .git copied, no git process), so they run
// side by side. The check runs in-process (checkChangesets), but for the first test, which runs the
// script as CI does (its lines and exit code, and those of the `changeset status` it runs then).
import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changesetBin, checkChangesets } from "../changeset-check.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const scriptFile = join(root, "scripts/changeset-check.mjs");
// The tests run side by side: every repository is removed once all are done.
const repos: string[] = [];
afterAll(() => {
  for (const repo of repos) rmSync(repo, { recursive: true, force: true });
});

function gitIn(repo: string, args: string[]) {
  const result = spawnSync("git", args, { cwd: repo, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

function writeIn(repo: string, file: string, text: string) {
  mkdirSync(dirname(join(repo, file)), { recursive: true });
  writeFileSync(join(repo, file), text);
}

/** The repository every test starts from: packages a to d, committed. */
let base: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), "changeset-check-base-"));
  repos.push(base);
  writeIn(
    base,
    "package.json",
    JSON.stringify({ name: "fixture", private: true, workspaces: ["packages/*"] }),
  );
  mkdirSync(join(base, ".changeset"));
  // The project's own configuration, so that the test pins the patterns the repository uses.
  copyFileSync(join(root, ".changeset/config.json"), join(base, ".changeset/config.json"));
  for (const name of ["a", "b", "c", "d"]) {
    writeIn(base, `packages/${name}/package.json`, JSON.stringify({ name: `@fx/${name}`, version: "1.0.0" }));
    writeIn(base, `packages/${name}/src/index.js`, "export const x = 1;\n");
  }
  gitIn(base, ["init", "-q", "-b", "main"]);
  gitIn(base, ["config", "user.email", "ci@example.com"]);
  gitIn(base, ["config", "user.name", "CI"]);
  gitIn(base, ["add", "-A"]);
  gitIn(base, ["commit", "-q", "-m", "start"]);
}, 60_000);

/** A copy of the base repository, and what a test does with it. */
function fixture() {
  const repo = mkdtempSync(join(tmpdir(), "changeset-check-"));
  repos.push(repo);
  cpSync(base, repo, { recursive: true });
  const write = (file: string, text: string) => writeIn(repo, file, text);
  const git = (...args: string[]) => gitIn(repo, args);
  const commit = (message: string) => {
    git("add", "-A");
    git("commit", "-q", "-m", message);
  };
  const changeset = (name: string, releases: Record<string, string>) => {
    const lines = Object.entries(releases).map(([pkg, bump]) => `"${pkg}": ${bump}`);
    write(`.changeset/${name}.md`, `---\n${lines.join("\n")}\n---\n\nWhat changed for users.\n`);
  };
  /** The check in-process: its lines, and the exit code the script would give. */
  const check = async () => {
    const result = await checkChangesets({ cwd: repo });
    return { status: result.ok ? 0 : 1, out: result.lines.join("\n") };
  };
  /** The script itself, as CI runs it: its exit code and what it prints need a process of its own. */
  const script = () => {
    const run = spawnSync(process.execPath, [scriptFile, "--cwd", repo], {
      encoding: "utf8",
      timeout: 60_000,
    });
    return { status: run.status, out: run.stdout + run.stderr };
  };
  return { repo, write, git, commit, changeset, check, script };
}

describe.concurrent("changeset check", () => {
  it("fails when a package's code changed without a changeset, and names it", async () => {
    const { write, commit, script } = fixture();
    write("packages/a/src/index.js", "export const x = 2;\n");
    commit("change a");
    const run = script();
    expect(run.status).toBe(1);
    expect(run.out).toContain("✗ @fx/a");
    expect(run.out).toContain("@fx/a changed without a changeset");
    // No changeset at all: changesets' own status fails, and what it says is printed as it is.
    expect(run.out).toContain("Some packages have been changed but no changesets were found");
  });

  it("fails when a changeset names one changed package but not the other", async () => {
    const { repo, write, commit, changeset, check } = fixture();
    write("packages/a/src/index.js", "export const x = 2;\n");
    write("packages/b/src/index.js", "export const x = 3;\n");
    changeset("only-a", { "@fx/a": "patch" });
    commit("change a and b");
    const run = await check();
    expect(run.status).toBe(1);
    expect(run.out).toContain("✗ @fx/b");
    expect(run.out).toContain("@fx/b changed without a changeset");
    // What this check adds: changeset status alone is content with one changeset for the two.
    const status = spawnSync(process.execPath, [changesetBin, "status", "--since=HEAD~1"], { cwd: repo });
    expect(status.status).toBe(0);
  });

  it("passes when every changed package has a changeset", async () => {
    const { write, commit, changeset, check } = fixture();
    write("packages/a/src/index.js", "export const x = 2;\n");
    write("packages/b/src/index.js", "export const x = 3;\n");
    changeset("both", { "@fx/a": "patch", "@fx/b": "minor" });
    commit("change a and b");
    const run = await check();
    expect(run.out).toContain("✓ @fx/a");
    expect(run.status).toBe(0);
  });

  // One check for the four kinds of file that are not a release, each in a package of its own:
  // the package whose kind counted as a change is the one named.
  it("lets changes to tests only and to docs only through", async () => {
    const { write, commit, check } = fixture();
    write("packages/a/test/index.test.ts", "it('works', () => {});\n");
    write("packages/b/src/thing.test.ts", "it('works', () => {});\n");
    write("packages/c/README.md", "# c\n\nHow to use it.\n");
    write("packages/d/guides/start.md", "# Start\n");
    commit("tests and docs");
    const run = await check();
    expect(run.out, "a test folder").not.toContain("@fx/a");
    expect(run.out, "a test file beside the sources").not.toContain("@fx/b");
    expect(run.out, "a README").not.toContain("@fx/c");
    expect(run.out, "a guide in Markdown").not.toContain("@fx/d");
    expect(run.out).toContain("No package changed beyond tests and docs.");
    expect(run.status).toBe(0);
  });

  it("accepts an empty changeset as 'no release needed'", async () => {
    const { write, commit, check } = fixture();
    write("packages/a/src/index.js", "export const x = 2;\n");
    write(".changeset/no-release.md", "---\n---\n\nRefactoring only.\n");
    commit("refactor");
    const run = await check();
    expect(run.out).toContain("no release needed for @fx/a");
    expect(run.status).toBe(0);
  });

  it("counts from the given base only", async () => {
    const { write, git, commit, check } = fixture();
    write("packages/a/src/index.js", "export const x = 2;\n");
    commit("change a");
    git("tag", "@fx/a@1.0.1");
    write("packages/b/README.md", "# b\n");
    commit("docs of b");
    const run = await check();
    expect(run.out).toContain("since @fx/a@1.0.1 (the newest release tag)");
    expect(run.status).toBe(0);
  });
});
