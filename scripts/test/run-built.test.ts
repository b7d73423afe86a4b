// `pnpm conformance|sim|mock …` build quietly, one build at a time, then run the command: turbo
// stands in here as a small program of the test's, so that no real build runs beside the workspace's
// other tests, and each test has a build lock of its own.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../run-built.mjs", import.meta.url));
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "run-built-"));
  // The command: prints its arguments, exits with the code it is given.
  writeFileSync(
    join(dir, "command.mjs"),
    'console.log("ran with " + process.argv.slice(2).join(" ")); process.exit(Number(process.argv.at(-1)));\n',
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A turbo that prints a banner and ends with `code`, once `gate` exists when one is named. */
function fakeTurbo(code: number, gate?: string) {
  const file = join(dir, "turbo");
  const wait = gate ? `for i in $(seq 600); do [ -f '${gate}' ] && break; sleep 0.1; done\n` : "";
  writeFileSync(file, `#!/bin/sh\necho "• turbo 2 • Packages in scope: $3"\n${wait}exit ${code}\n`);
  chmodSync(file, 0o755);
  return file;
}

/**
 * The script with `turbo` standing in for turbo, announcing a slow build after its own delay; but
 * where the test waits for the announcement (`onStderr`), at once: the stand-in build waits for the
 * line instead of the test waiting out the real delay.
 */
function run(turbo: string, args: string[], onStderr?: (text: string) => void) {
  const announce: Record<string, string> = onStderr ? { RUN_BUILT_ANNOUNCE_AFTER_MS: "0" } : {};
  return start(turbo, args, announce, onStderr).done;
}

/** The script started with `env` added, and its end; a lock of the test's own. */
function start(
  turbo: string,
  args: string[],
  env: Record<string, string>,
  onStderr?: (text: string) => void,
) {
  const child = spawn(process.execPath, [script, "@platform-api/x", join(dir, "command.mjs"), ...args], {
    env: {
      ...process.env,
      RUN_BUILT_TURBO: turbo,
      RUN_BUILT_LOCK: lockPath(),
      // Well short of the test's own bound: a lock never freed fails with the script's message.
      RUN_BUILT_LOCK_WAIT_MS: "30000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      let stdout = "";
      let stderr = "";
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`no end within 60 s; stderr: ${stderr}`));
      }, 60_000);
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
        onStderr?.(stderr);
      });
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    },
  );
  return { child, done };
}

const lockPath = () => join(dir, "cache", "run-built.lock");
const buildLog = () => join(dir, "builds.log");

/**
 * A turbo that logs when its build starts (with its pid) and ends, and ends only once the test opens
 * its gate (`open(name)`): which builds overlap is then up to the script, never to timing. Each
 * run names itself in STAND_IN_RUN.
 */
function gatedTurbo() {
  const file = join(dir, "gated-turbo");
  writeFileSync(
    file,
    `#!/bin/sh
echo "start $STAND_IN_RUN $$" >> '${buildLog()}'
for i in $(seq 600); do [ -f '${dir}/gate-'"$STAND_IN_RUN" ] && break; sleep 0.1; done
echo "end $STAND_IN_RUN" >> '${buildLog()}'
`,
  );
  chmodSync(file, 0o755);
  return file;
}

const open = (name: string) => writeFileSync(join(dir, `gate-${name}`), "");

/** The builds' starts and ends, in order, without the pids. */
function builds() {
  if (!existsSync(buildLog())) return [];
  return readFileSync(buildLog(), "utf8")
    .trim()
    .split("\n")
    .map((line) => line.split(" ").slice(0, 2).join(" "));
}

/** Waits for `name`'s build to start (bounded); its stand-in turbo's pid. */
async function started(name: string) {
  for (let i = 0; i < 3_000; i++) {
    const line = existsSync(buildLog())
      ? readFileSync(buildLog(), "utf8")
          .split("\n")
          .find((entry) => entry.startsWith(`start ${name} `))
      : undefined;
    if (line) return Number(line.split(" ")[2]);
    await sleep(20);
  }
  throw new Error(`the build of ${name} never started`);
}

/** Resolves once the run's stderr matches `pattern`, or once it has ended (its result says why). */
function stderrMatches(run: ReturnType<typeof start>, pattern: RegExp) {
  return new Promise<void>((resolve) => {
    let stderr = "";
    run.child.stderr.on("data", (chunk) => {
      stderr += chunk;
      if (pattern.test(stderr)) resolve();
    });
    run.child.once("close", () => resolve());
  });
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("run-built", () => {
  it("prints the command's output only, with its arguments and its exit code", async () => {
    const result = await run(fakeTurbo(0), ["--flag", "3"]);
    expect(result.stdout).toBe("ran with --flag 3\n");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(3);
  });

  it("shows turbo's output when the build fails, runs nothing and exits 2", async () => {
    const result = await run(fakeTurbo(1), ["0"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Packages in scope: --filter=@platform-api/x");
    expect(result.stderr).toContain("The build of @platform-api/x failed (above); nothing was run.");
    expect(existsSync(lockPath())).toBe(false);
  });

  it("says what it is waiting for when the build takes a while", async () => {
    const gate = join(dir, "gate");
    const result = await run(fakeTurbo(0, gate), ["0"], (stderr) => {
      if (stderr.includes("Building @platform-api/x")) writeFileSync(gate, "");
    });
    expect(result.stderr).toBe("Building @platform-api/x and what it needs (turbo)…\n");
    expect(result.stdout).toBe("ran with 0\n");
    expect(result.code).toBe(0);
  });
});

// Two runs at once (`pnpm sim` in one terminal, `pnpm conformance observe` in another) are separate
// processes sharing one checkout: only child processes can prove that their builds take turns, and
// that a run stopped by a signal or killed leaves the next one free to build.
describe("run-built's build lock", () => {
  it("runs one build at a time: a second run waits for the first's, saying once for whose", async () => {
    const turbo = gatedTurbo();
    const first = start(turbo, ["0"], { STAND_IN_RUN: "first" });
    await started("first");
    // The second announces its build at once: without the lock, that line comes instead of the wait.
    const second = start(turbo, ["0"], { STAND_IN_RUN: "second", RUN_BUILT_ANNOUNCE_AFTER_MS: "0" });
    await stderrMatches(second, /Waiting for|Building/);
    open("first");
    open("second");
    const [firstResult, secondResult] = await Promise.all([first.done, second.done]);
    expect(builds()).toEqual(["start first", "end first", "start second", "end second"]);
    const waiting = `Waiting for the build of @platform-api/x by pid ${first.child.pid} (since `;
    expect(secondResult.stderr).toContain(waiting);
    expect(secondResult.stderr).toContain(`to finish (build lock ${lockPath()})…\n`);
    expect(secondResult.stderr.split("Waiting for").length).toBe(2);
    expect([firstResult.stdout, secondResult.stdout]).toEqual(["ran with 0\n", "ran with 0\n"]);
    expect([firstResult.code, secondResult.code]).toEqual([0, 0]);
    expect(existsSync(lockPath())).toBe(false);
  });

  it("takes over the lock of a run killed mid-build, and says so", async () => {
    const turbo = gatedTurbo();
    const killed = start(turbo, ["0"], { STAND_IN_RUN: "killed" });
    const orphan = await started("killed");
    // SIGKILL: nothing of the script runs, the lock stays behind with its owner's pid.
    killed.child.kill("SIGKILL");
    await killed.done;
    process.kill(orphan, "SIGKILL");
    expect(existsSync(lockPath())).toBe(true);
    open("next");
    const next = await start(turbo, ["0"], { STAND_IN_RUN: "next" }).done;
    expect(next.stderr).toContain(
      `Took over the build lock ${lockPath()}: its owner, pid ${killed.child.pid} (@platform-api/x), is gone.\n`,
    );
    expect(next.stderr).not.toContain("Waiting for");
    expect(next.stdout).toBe("ran with 0\n");
    expect(next.code).toBe(0);
    expect(existsSync(lockPath())).toBe(false);
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "frees the lock on %s to the runner alone, once its build has stopped",
    async (signal) => {
      const interrupted = start(gatedTurbo(), ["0"], { STAND_IN_RUN: "interrupted" });
      const build = await started("interrupted");
      expect(existsSync(lockPath())).toBe(true);
      interrupted.child.kill(signal);
      const result = await interrupted.done;
      expect(result.signal).toBe(signal);
      expect(result.stdout).toBe("");
      expect(existsSync(lockPath())).toBe(false);
      // Freed only once turbo is gone: a build still writing dist/ keeps the lock.
      expect(isAlive(build)).toBe(false);
    },
  );

  it("gives up after its bounded wait, naming the lock and how to remove it, and runs nothing", async () => {
    const turbo = gatedTurbo();
    const holder = start(turbo, ["0"], { STAND_IN_RUN: "holder" });
    await started("holder");
    const late = await start(turbo, ["0"], { STAND_IN_RUN: "late", RUN_BUILT_LOCK_WAIT_MS: "1000" }).done;
    expect(late.stderr).toContain(
      `Gave up after 1 s waiting for the build of @platform-api/x by pid ${holder.child.pid} (since `,
    );
    expect(late.stderr).toContain(
      `If no build is running, remove the lock: rm -r '${lockPath()}'\nNothing was run.\n`,
    );
    expect(late.stdout).toBe("");
    expect(late.code).toBe(2);
    open("holder");
    expect((await holder.done).code).toBe(0);
    expect(builds()).toEqual(["start holder", "end holder"]);
  });
});
