// Runs the built CLI (dist/cli.js) as a user would, in its own process, and reads its report. A run
// as the CLI makes it once its flags are parsed, in the test's own process: run-in-process.ts.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { reportFiles } from "../src/report/formats.js";
import type { Report } from "../src/shared/results.js";

export const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/**
 * How long one run may take before it is stopped and reported as such. A whole-suite run takes
 * about 6 s alone and 20 s on a loaded 2-core machine; this is a bound for a run that hangs, not an
 * estimate. Test timeouts (vitest.config.ts) are above it, so a stopped run fails with its output.
 */
export const RUN_TIMEOUT_MS = 240_000;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  report: Report | undefined;
  files: Record<string, string>;
}

export function assertBuilt() {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the package first (pnpm build)`);
}

/** Only what a run needs from the environment, plus the given variables (the keys). */
export function runEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env };
}

export function toRun(code: number, stdout: string, stderr: string, files: Record<string, string>): CliRun {
  return {
    code,
    stdout,
    stderr,
    report: files["report.json"] ? JSON.parse(files["report.json"]) : undefined,
    files,
  };
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = RUN_TIMEOUT_MS,
): Promise<CliRun> {
  assertBuilt();
  const dir = mkdtempSync(join(tmpdir(), "conformance-"));
  // Its own process group, so that a run stopped at the bound takes what it started (Prism) with it.
  const child = spawn(process.execPath, [CLI, "--report", dir, ...args], {
    env: runEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let stopped = false;
  const timer = setTimeout(() => {
    stopped = true;
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {
      // already gone
    }
  }, timeoutMs);
  return new Promise((resolve) => {
    child.once("close", (code) => {
      clearTimeout(timer);
      const files: Record<string, string> = {};
      for (const name of reportFiles()) {
        const file = join(dir, name);
        if (existsSync(file)) files[name] = readFileSync(file, "utf8");
      }
      rmSync(dir, { recursive: true, force: true });
      resolve(
        toRun(code ?? -1, stdout, stderr + (stopped ? `\n[stopped after ${timeoutMs} ms]` : ""), files),
      );
    });
  });
}

export const failedIds = (run: CliRun) =>
  (run.report?.scenarios ?? [])
    .filter((s) => s.status === "failed")
    .map((s) => s.id)
    .sort();
