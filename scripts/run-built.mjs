#!/usr/bin/env node
// `pnpm conformance|sim|mock|docs:serve|workflows …`: builds what the command needs through turbo,
// quietly, then runs it with the arguments given. The user sees the command's own output only:
// turbo's banner and task summary are shown when the build fails, and a build that takes a while
// (a fresh clone, changed sources) is announced in one line on stderr. Builds run one at a time in a
// checkout (scripts/build-lock.mjs): a second run started meanwhile (`pnpm sim` in one terminal,
// `pnpm conformance observe` in another) waits for the first's build, saying once for whose.
//
//   node scripts/run-built.mjs <package> <script> [args…]
//
// Exit code: the command's own; 2 when the build fails or the build lock stays held too long (a setup
// problem, never a verdict).
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { acquireBuildLock, BuildLockTimeout } from "./build-lock.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// A build that is not done by then is real work, not a cache hit: say what the wait is. A test may
// set another delay, so that whether the line comes never depends on how fast the machine is.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read before turbo runs, never inside a task
const ANNOUNCE_AFTER_MS = Number(process.env.RUN_BUILT_ANNOUNCE_AFTER_MS ?? 2_000);
const BUILD_FAILED = 2;

const [pkg, script, ...args] = process.argv.slice(2);
if (!pkg || !script) {
  console.error("usage: node scripts/run-built.mjs <package> <script> [args…]");
  process.exit(BUILD_FAILED);
}

// The turbo of the workspace; a test may name another program that stands in for it.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read before turbo runs, never inside a task
const turbo = process.env.RUN_BUILT_TURBO ?? join(root, "node_modules/.bin/turbo");
// One build at a time in this checkout (scripts/build-lock.mjs); a test may name a lock of its own.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read before turbo runs, never inside a task
const lockPath = process.env.RUN_BUILT_LOCK ?? join(root, "node_modules/.cache/run-built.lock");
// Longer than a cold build of every package on a busy two-core machine (minutes); a test may wait less.
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read before turbo runs, never inside a task
const LOCK_WAIT_MS = Number(process.env.RUN_BUILT_LOCK_WAIT_MS ?? 10 * 60_000);
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];

let lock;
// The build running, and the signal that asked this process to stop while it ran.
let building;
let interrupted;
// Whatever ends this process (an exit, an error, a signal handled below) frees the lock first: a
// lock left by an exited process would make the next run wait for nothing. Only SIGKILL leaves it,
// and the next run takes it over.
process.on("exit", () => lock?.release());
// Ctrl-C reaches turbo as well (same process group); a signal sent to this process alone is passed
// on. Either way the lock is freed once turbo has ended, never while it may still write dist/.
const stopBuild = (signal) => {
  interrupted ??= signal;
  if (building) building.kill(signal);
  else endBy(signal);
};
for (const signal of SIGNALS) process.on(signal, stopBuild);

try {
  lock = await acquireBuildLock(lockPath, {
    pkg,
    waitMs: LOCK_WAIT_MS,
    say: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  if (!(error instanceof BuildLockTimeout)) throw error;
  console.error(`${error.message}\nNothing was run.`);
  process.exit(BUILD_FAILED);
}
const build = await runTurbo();
lock.release();
if (interrupted) endBy(interrupted);
for (const signal of SIGNALS) process.off(signal, stopBuild);
if (!build.ok) {
  process.stderr.write(build.output);
  console.error(`The build of ${pkg} failed (above); nothing was run.`);
  process.exit(BUILD_FAILED);
}

const child = spawn(process.execPath, [resolve(root, script), ...args], { stdio: "inherit" });
// Ctrl-C reaches the command as well (same process group): this process waits for its answer. A
// signal sent to this process alone is passed on.
for (const signal of SIGNALS) {
  process.on(signal, () => {
    if (signal !== "SIGINT") child.kill(signal);
  });
}
child.once("exit", (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  endBy(signal);
});

/** turbo's build of the package, quiet: its output is kept for when it fails. */
function runTurbo() {
  return new Promise((resolve) => {
    const turboRun = spawn(turbo, ["run", "build", `--filter=${pkg}`, "--output-logs=errors-only"], {
      cwd: root,
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    building = turboRun;
    let output = "";
    turboRun.stdout.on("data", (chunk) => {
      output += chunk;
    });
    turboRun.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const announce = setTimeout(
      () => process.stderr.write(`Building ${pkg} and what it needs (turbo)…\n`),
      ANNOUNCE_AFTER_MS,
    );
    turboRun.once("error", (error) => {
      clearTimeout(announce);
      building = undefined;
      resolve({ ok: false, output: `could not start turbo (${turbo}): ${error.message}\n` });
    });
    turboRun.once("close", (code) => {
      clearTimeout(announce);
      building = undefined;
      resolve({ ok: code === 0, output });
    });
  });
}

/** Ended by a signal: this process ends the same way, so its caller sees the same. */
function endBy(signal) {
  lock?.release();
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}
