// The release gate on a throw-away repository with two packages: a package that changed needs a
// changeset naming it, unless only its tests or docs changed.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changesetBin } from "../changeset-check.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const script = join(root, "scripts/changeset-check.mjs");
let repo: string;

function write(file: string, text: string) {
  mkdirSync(dirname(join(repo, file)), { recursive: true });
  writeFileSync(join(repo, file), text);
}

function git(...args: string[]) {
  const result = spawnSync("git", args, { cwd: repo, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

function commit(message: string) {
  git("add", "-A");
  git("commit", "-q", "-m", message);
}

function changeset(name: string, releases: Record<string, string>) {
  const lines = Object.entries(releases).map(([pkg, bump]) => `"${pkg}": ${bump}`);
  write(`.changeset/${name}.md`, `---\n${lines.join("\n")}\n---\n\nWhat changed for users.\n`);
}

function check() {
  const run = spawnSync(process.execPath, [script, "--cwd", repo], { encoding: "utf8", timeout: 60_000 });
  return { status: run.status, out: run.stdout + run.stderr };
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "changeset-check-"));
  write("package.json", JSON.stringify({ name: "fixture", private: true, workspaces: ["packages/*"] }));
  mkdirSync(join(repo, ".changeset"));
  // The project's own configuration, so that the test pins the patterns the repository uses.
  copyFileSync(join(root, ".changeset/config.json"), join(repo, ".changeset/config.json"));
  for (const name of ["a", "b"]) {
    write(`packages/${name}/package.json`, JSON.stringify({ name: `@fx/${name}`, version: "1.0.0" }));
    write(`packages/${name}/src/index.js`, "export const x = 1;\n");
  }
  git("init", "-q", "-b", "main");
  git("config", "user.email", "ci@example.com");
  git("config", "user.name", "CI");
  commit("start");
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe("changeset check", () => {
  it("fails when a package's code changed without a changeset, and names it", () => {
    write("packages/a/src/index.js", "export const x = 2;\n");
    commit("change a");
    const run = check();
    expect(run.status).toBe(1);
    expect(run.out).toContain("✗ @fx/a");
    expect(run.out).toContain("@fx/a changed without a changeset");
  });

  it("fails when a changeset names one changed package but not the other", () => {
    write("packages/a/src/index.js", "export const x = 2;\n");
    write("packages/b/src/index.js", "export const x = 3;\n");
    changeset("only-a", { "@fx/a": "patch" });
    commit("change a and b");
    const run = check();
    expect(run.status).toBe(1);
    expect(run.out).toContain("✗ @fx/b");
    expect(run.out).toContain("@fx/b changed without a changeset");
    // What this check adds: changeset status alone is content with one changeset for the two.
    const status = spawnSync(process.execPath, [changesetBin, "status", "--since=HEAD~1"], { cwd: repo });
    expect(status.status).toBe(0);
  });

  it("passes when every changed package has a changeset", () => {
    write("packages/a/src/index.js", "export const x = 2;\n");
    write("packages/b/src/index.js", "export const x = 3;\n");
    changeset("both", { "@fx/a": "patch", "@fx/b": "minor" });
    commit("change a and b");
    const run = check();
    expect(run.out).toContain("✓ @fx/a");
    expect(run.status).toBe(0);
  });

  it("lets changes to tests only through", () => {
    write("packages/a/test/index.test.ts", "it('works', () => {});\n");
    write("packages/b/src/thing.test.ts", "it('works', () => {});\n");
    commit("tests");
    const run = check();
    expect(run.out).toContain("No package changed beyond tests and docs.");
    expect(run.status).toBe(0);
  });

  it("lets changes to docs only through", () => {
    write("packages/a/README.md", "# a\n\nHow to use it.\n");
    write("packages/b/guides/start.md", "# Start\n");
    commit("docs");
    const run = check();
    expect(run.status).toBe(0);
  });

  it("accepts an empty changeset as 'no release needed'", () => {
    write("packages/a/src/index.js", "export const x = 2;\n");
    write(".changeset/no-release.md", "---\n---\n\nRefactoring only.\n");
    commit("refactor");
    const run = check();
    expect(run.out).toContain("no release needed for @fx/a");
    expect(run.status).toBe(0);
  });

  it("counts from the given base only", () => {
    write("packages/a/src/index.js", "export const x = 2;\n");
    commit("change a");
    git("tag", "@fx/a@1.0.1");
    write("packages/b/README.md", "# b\n");
    commit("docs of b");
    const run = check();
    expect(run.out).toContain("since @fx/a@1.0.1 (the newest release tag)");
    expect(run.status).toBe(0);
  });
});
