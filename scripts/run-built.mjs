#!/usr/bin/env node
// `pnpm conformance|sim|mock|docs:serve|workflows …`: builds what the command needs through turbo,
// quietly, then runs it with the arguments given. The user sees the command's own output only:
// turbo's banner and task summary are shown when the build fails, and a build that takes a while
// (a fresh clone, changed sources) is announced in one line on stderr.
//
//   node scripts/run-built.mjs <package> <script> [args…]
//
// Exit code: the command's own; 2 when the build fails (a setup problem, never a verdict).
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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
const build = await new Promise((resolve) => {
  const child = spawn(turbo, ["run", "build", `--filter=${pkg}`, "--output-logs=errors-only"], {
    cwd: root,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", TURBO_NO_UPDATE_NOTIFIER: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  const announce = setTimeout(
    () => process.stderr.write(`Building ${pkg} and what it needs (turbo)…\n`),
    ANNOUNCE_AFTER_MS,
  );
  child.once("error", (error) => {
    clearTimeout(announce);
    resolve({ ok: false, output: `could not start turbo (${turbo}): ${error.message}\n` });
  });
  child.once("close", (code) => {
    clearTimeout(announce);
    resolve({ ok: code === 0, output });
  });
});
if (!build.ok) {
  process.stderr.write(build.output);
  console.error(`The build of ${pkg} failed (above); nothing was run.`);
  process.exit(BUILD_FAILED);
}

const child = spawn(process.execPath, [resolve(root, script), ...args], { stdio: "inherit" });
// Ctrl-C reaches the command as well (same process group): this process waits for its answer. A
// signal sent to this process alone is passed on.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (signal !== "SIGINT") child.kill(signal);
  });
}
child.once("exit", (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  // Ended by a signal: this process ends the same way, so its caller sees the same.
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
});
