// Runs the built CLI (dist/cli.js) as a user would, in its own process, and reads its report; or,
// for many runs, hands them to one run host (run-host.mjs), which runs them as the CLI does after
// parsing its flags, in one process.
import { type ChildProcess, fork, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { reportFiles } from "../src/report/formats.js";
import type { Report } from "../src/shared/results.js";

export const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const HOST = fileURLToPath(new URL("./run-host.mjs", import.meta.url));

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

export interface RunHost {
  /** One run with the CLI's flags and environment variables; `code` is the CLI's exit code. */
  run(
    args: string[],
    env?: Record<string, string>,
    timeoutMs?: number,
    /** Options no flag gives (a library user's): `recordExchanges`. */
    library?: { recordExchanges?: string },
  ): Promise<CliRun>;
  close(): Promise<void>;
}

interface HostAnswer {
  id: number;
  code?: number;
  stdout?: string;
  files?: Record<string, string>;
  error?: string;
}

/** Starts a run host: a child process that makes many runs, several at a time, until closed. */
export async function startRunHost(): Promise<RunHost> {
  assertBuilt();
  let stderr = "";
  const child: ChildProcess = fork(HOST, [], {
    // Plain `node`, as for the CLI: not this vitest worker's flags (its --conditions among them).
    execArgv: [],
    env: runEnv({}),
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const waiting = new Map<number, (answer: HostAnswer) => void>();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exited.then(() => {
    for (const [id, done] of waiting) done({ id, error: `the run host exited:\n${stderr}` });
    waiting.clear();
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) =>
      reject(new Error(`the run host exited (${code}) before it was ready:\n${stderr}`)),
    );
  });
  child.on("message", (answer: HostAnswer) => {
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  let next = 0;
  return {
    run(args, env = {}, timeoutMs = RUN_TIMEOUT_MS, library = {}) {
      const id = next++;
      return new Promise<CliRun>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(toRun(-1, "", `[no answer from the run host after ${timeoutMs} ms]\n${stderr}`, {}));
        }, timeoutMs);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(toRun(answer.code ?? -1, answer.stdout ?? "", answer.error ?? "", answer.files ?? {}));
        });
        child.send({ id, args, env: runEnv(env), library });
      });
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.disconnect();
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

export const failedIds = (run: CliRun) =>
  (run.report?.scenarios ?? [])
    .filter((s) => s.status === "failed")
    .map((s) => s.id)
    .sort();
