// scripts/node-versions.mjs on a throw-away copy of the repository's layout, with stand-in installs
// (a `node` that reports the pinned version and hands everything else to this Node), so that nothing
// is downloaded: what `list`, `install` and `run` do with what is present, and `run`'s PATH and exit
// code. The real install (npm's `node` package) runs in .ci/run.
import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
let repo: string;

function script(...args: string[]) {
  const run = spawnSync(process.execPath, [join(repo, "scripts/node-versions.mjs"), ...args], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `list` in a copy where nothing is installed, and the pins it names: [major, version] pairs. */
let fresh: { stdout: string; pins: [string, string][] };
/** The pins, as `list` names them (the same for every test: read once, by one process). */
const pins = () => fresh.pins;

const nodeAt = (major: string) => join(repo, ".node-versions", major, "node_modules/node/bin/node");

/** A stand-in install of `major` that says it is `version`. */
function fake(major: string, version: string) {
  const node = nodeAt(major);
  mkdirSync(join(node, ".."), { recursive: true });
  writeFileSync(
    node,
    `#!/bin/sh\nif [ "$1" = "--version" ]; then echo v${version}; exit 0; fi\nexec "${process.execPath}" "$@"\n`,
  );
  chmodSync(node, 0o755);
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), "node-versions-"));
  mkdirSync(join(repo, "scripts"));
  copyFileSync(join(root, "scripts/node-versions.mjs"), join(repo, "scripts/node-versions.mjs"));
  // Read by the first test's copy, before it installs anything.
  fresh ??= (() => {
    const { stdout } = script("list");
    const pins = stdout
      .trim()
      .split("\n")
      .map((line) => line.split(" ").slice(0, 2) as [string, string]);
    return { stdout, pins };
  })();
  // One `list` process on the first test: bounded as the script's own runs are.
}, 60_000);

afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
});

describe.skipIf(process.platform === "win32")("node-versions", () => {
  it("pins exact versions of the majors above 20, up to 24 at least", () => {
    const list = pins();
    const majors = list.map(([major]) => Number(major));
    expect(majors).toContain(22);
    expect(majors).toContain(24);
    expect(majors).not.toContain(20);
    for (const [major, version] of list) expect(version).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
    expect(fresh.stdout).toContain("(not installed)");
  });

  it("install skips what is present and matches its pin, without npm", () => {
    for (const [major, version] of pins()) fake(major, version);
    const run = script("install");
    expect(run.status, run.stderr).toBe(0);
    for (const [major, version] of pins())
      expect(run.stdout).toContain(`Node ${version}: ${nodeAt(major)} (present)`);
    expect(script("list").stdout).not.toContain("not installed");
  });

  it("run puts the pinned Node first on PATH and passes the exit code through", () => {
    const [[major, version]] = pins() as [[string, string]];
    fake(major, version);
    const run = script("run", major, "--", "sh", "-c", "command -v node; node --version; exit 7");
    expect(run.status).toBe(7);
    expect(run.stdout.split("\n").slice(0, 2)).toEqual([nodeAt(major), `v${version}`]);
    // Children of the command find it too: its `node` runs scripts.
    const child = script("run", major, "--", "node", "-e", "process.exit(3)");
    expect(child.status).toBe(3);
  });

  it("run refuses a version that is not installed, or installed at another version, saying what to do", () => {
    const [[major, version]] = pins() as [[string, string]];
    const missing = script("run", major, "--", "node", "--version");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`node scripts/node-versions.mjs install ${major}`);
    fake(major, `${major}.0.0`);
    const other = script("run", major, "--", "node", "--version");
    expect(other.status).toBe(2);
    expect(other.stderr).toContain(`Node ${version} is not installed (${major}.0.0 is)`);
    expect(script("list").stdout).toContain(`${major}.0.0 installed, run install`);
  });

  it("refuses a major it does not pin, and a run without -- and a command", () => {
    expect(script("run", "18", "--", "node", "--version").stderr).toContain("no Node 18 here");
    expect(script("run", "22", "node").status).toBe(2);
    expect(script("run", "22", "--").status).toBe(2);
    expect(script("install", "18").status).toBe(2);
    expect(script().stderr).toContain("usage: node scripts/node-versions.mjs install");
  });

  it("a command that does not exist: 127, as a shell says", () => {
    const [[major, version]] = pins() as [[string, string]];
    fake(major, version);
    expect(script("run", major, "--", "no-such-command-here").status).toBe(127);
  });
});
