// What the test command costs on this machine (`pnpm test:cost`): the builds, each package's tests
// alone, then the whole command as the README runs it (`--force`, so turbo replays nothing), each as
// wall seconds and CPU seconds, beside a fixed workload timed in the same run (the baseline).
//
// Wall time alone does not travel: the same commit's test command took 155 s on one 2-core machine
// and 236 s on another. CPU seconds divided by the baseline's travel better, as the client's
// benchmarks write theirs as ratios: a goal or a before/after written in baselines compares across
// machines of one shape. Not exactly: two busy cores may each do less per CPU-second than one
// (shared caches, hyperthreads), and the baseline is timed alone.
//
// CPU is counted in a cgroup (v2) of the command's own, so it covers every process the command
// starts, Chromium's renderers and processes their parents never wait for included. Without one
// (not Linux, or no right to make a cgroup), it is the children's CPU the kernel hands back as
// they are waited for, and the table says so.
//
//   pnpm test:cost [--parts builds,packages,whole]
//
// Prints a Markdown table; each command's output goes to a log file, named when it fails. Ctrl-C
// stops the command being measured and prints what was measured before it.
import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { packagesWithTests } from "./packages-with-tests.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
export const PARTS = ["builds", "packages", "whole"];
/**
 * How many times the baseline runs before the measured commands and again after them. The least
 * CPU any run took is the one used, every run printed beside it: other work on the machine only
 * ever slows a run (measured here: 1.0 CPU-s six times on a quiet machine, 1.2 to 1.7 with a test
 * run beside it).
 */
const BASELINE_RUNS = 3;
/** A bound for any one measured command: the whole test command takes a few minutes. */
const COMMAND_TIMEOUT_MS = 30 * 60_000;
/** How long the processes a command left behind get to end before its cgroup is read anyway. */
const LEFTOVER_WAIT_MS = 10_000;
/** The kernel's unit for a process's CPU in /proc (USER_HZ, 100 on every Linux). */
const TICKS_PER_SECOND = 100;

/**
 * The fixed workload: JSON written and read back, a regular expression over it and a sort, on data
 * made from a fixed seed. Never change it: every figure in baselines is relative to it.
 */
export function baselineWorkload(rounds = 12) {
  let seed = 1;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const items = Array.from({ length: 20_000 }, (_, id) => ({
    id,
    name: `item-${next().toString(36)}`,
    tags: Array.from({ length: 5 }, () => next().toString(16)),
    value: next() / 7,
  }));
  let checksum = 0;
  for (let round = 0; round < rounds; round++) {
    const text = JSON.stringify(items);
    const back = JSON.parse(text);
    checksum += text.match(/"name":"item-[0-9a-z]+"/g)?.length ?? 0;
    back.sort((a, b) => a.value - b.value || a.id - b.id);
    checksum += back[0].id;
  }
  return checksum;
}

/** The cgroup v2 mount, from /proc/self/mounts; undefined when there is none. */
function cgroup2Mount() {
  if (!existsSync("/proc/self/mounts")) return undefined;
  const line = readFileSync("/proc/self/mounts", "utf8")
    .split("\n")
    .find((l) => l.split(" ")[2] === "cgroup2");
  return line?.split(" ")[1];
}

/** A cgroup of its own under `mount` that this process may move a child into, or undefined. */
function ownCgroup(mount, name) {
  const dir = join(mount, name);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  // Moving a process in is what can still be refused (a mount that is not ours to write).
  const probe = spawnSync("/bin/sh", ["-c", 'echo $$ > "$0"', join(dir, "cgroup.procs")]);
  if (probe.status === 0 && existsSync(join(dir, "cpu.stat"))) return dir;
  rmdirSync(dir);
  return undefined;
}

/** The cgroups made by this process, counted so that each has a name of its own. */
let made = 0;
const name = () => `platform-api-test-cost-${process.pid}-${made++}`;

/** The CPU seconds the waited-for children of this process have used so far (/proc/self/stat). */
function childrenCpuSeconds() {
  const stat = readFileSync("/proc/self/stat", "utf8");
  // The fields after the command's name, which may hold spaces: cutime and cstime are 14 and 15 of them.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

/**
 * How CPU is counted here: `how` says it in words, `run` runs a command and answers its wall and
 * CPU seconds (CPU undefined where it cannot be counted) and its exit status.
 */
export function cpuMeter({ leftoverWaitMs = LEFTOVER_WAIT_MS } = {}) {
  const mount = cgroup2Mount();
  const probe = mount && ownCgroup(mount, name());
  if (probe) {
    rmdirSync(probe);
    return {
      how: "a cgroup of each command's own: every process it started",
      run: (command, args, options) => {
        const dir = ownCgroup(mount, name());
        if (!dir) throw new Error(`could not make a cgroup under ${mount}, as a moment ago`);
        return inCgroup(dir, command, args, options, leftoverWaitMs);
      },
    };
  }
  if (existsSync("/proc/self/stat"))
    return {
      how: "the children's CPU as they are waited for (no cgroup here): processes nobody waits for are left out",
      run: async (command, args, options) => {
        const before = childrenCpuSeconds();
        const result = await timed(command, args, options);
        return { ...result, cpuSeconds: childrenCpuSeconds() - before };
      },
    };
  return { how: "not counted here (no /proc): wall time only", run: timed };
}

/** The command, started inside `dir` (a cgroup): its CPU is the cgroup's once every process in it ended. */
async function inCgroup(dir, command, args, options, leftoverWaitMs) {
  // The shell moves itself in, then becomes the command: nothing runs before it is counted. The
  // command and its arguments are the shell's own arguments, never part of its script.
  const result = await timed(
    "/bin/sh",
    ["-c", 'echo $$ > "$0" && exec "$@"', join(dir, "cgroup.procs"), command, ...args],
    options,
  );
  if (!(await ended(dir, leftoverWaitMs))) {
    // Processes the command left running past the wait (a browser nobody closed, say):
    // stopped, so that they neither skew the next measure nor keep the cgroup, and said in the row.
    result.leftover = readFileSync(join(dir, "cgroup.procs"), "utf8").trim().split("\n").length;
    if (existsSync(join(dir, "cgroup.kill"))) writeFileSync(join(dir, "cgroup.kill"), "1");
    await ended(dir, leftoverWaitMs);
  }
  const usage = /^usage_usec (\d+)$/m.exec(readFileSync(join(dir, "cpu.stat"), "utf8"));
  try {
    rmdirSync(dir);
  } catch {
    // Still holding a process (a kernel without cgroup.kill): left for the system to remove.
  }
  return { ...result, cpuSeconds: usage ? Number(usage[1]) / 1e6 : undefined };
}

/** Whether the cgroup came to hold no process within `waitMs`. */
async function ended(dir, waitMs) {
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    if (/^populated 0$/m.test(readFileSync(join(dir, "cgroup.events"), "utf8"))) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Runs a command with its output in `log`; answers its wall seconds and exit status. */
function timed(command, args, { cwd = root, log }) {
  const out = openSync(log, "w");
  const started = process.hrtime.bigint();
  const child = spawn(command, args, { cwd, stdio: ["ignore", out, out], timeout: COMMAND_TIMEOUT_MS });
  // Ctrl-C reaches a child of the terminal's process group itself; one started otherwise is told.
  const onSignal = () => child.kill("SIGINT");
  process.on("SIGINT", onSignal);
  return new Promise((resolve) => {
    let settled = false;
    const done = (status) => {
      if (settled) return;
      settled = true;
      process.off("SIGINT", onSignal);
      closeSync(out);
      resolve({ wallSeconds: Number(process.hrtime.bigint() - started) / 1e9, status });
    };
    child.on("error", (error) => {
      writeFileSync(log, `could not start ${command}: ${error.message}\n`);
      done("not started");
    });
    child.on("close", (code, signal) => done(code ?? signal));
  });
}

const seconds = (value) => (value === undefined ? "n/a" : value.toFixed(1));

/**
 * The Markdown table: `machine` (model, cores, node, load), `baseline` ({ least, runs }: CPU
 * seconds; undefined where CPU was not counted), `how` CPU was counted, and rows of { what,
 * wallSeconds, cpuSeconds, status, result, log, leftover }.
 */
export function costTable({ machine, baseline, how, rows }) {
  const inBaselines = (cpu) => (cpu === undefined || !baseline ? "n/a" : (cpu / baseline.least).toFixed(1));
  const lines = [
    `Machine: ${machine.model}, ${machine.cores} cores, Node ${machine.node}; load average ${machine.load.toFixed(2)} at the start.`,
    baseline === undefined
      ? "Baseline: n/a (CPU not counted)."
      : `Baseline: ${baseline.least.toFixed(2)} CPU-s, the least of ${baseline.runs.length} runs of the fixed workload in scripts/test-cost.mjs, before and after the rest (all: ${baseline.runs.map((r) => r.toFixed(2)).join(", ")}).`,
    `CPU: ${how}.`,
    "",
    "| What | Wall s | CPU-s | CPU in baselines | Result |",
    "| --- | ---: | ---: | ---: | --- |",
  ];
  for (const row of rows) {
    const result =
      row.status === 0
        ? (row.result ?? "ok")
        : `FAILED (exit ${row.status}${row.result ? `; ${row.result}` : ""}), log: ${row.log}`;
    const left = row.leftover
      ? ` (${row.leftover} of its processes still ran after it, and were stopped)`
      : "";
    lines.push(
      `| ${row.what} | ${seconds(row.wallSeconds)} | ${seconds(row.cpuSeconds)} | ${inBaselines(row.cpuSeconds)} | ${result}${left} |`,
    );
  }
  return lines.join("\n");
}

/** The parts asked for (`--parts`), each checked against PARTS. */
export function partsOf(argv) {
  const { values } = parseArgs({
    args: argv,
    options: { parts: { type: "string", default: PARTS.join(",") } },
    strict: true,
  });
  const parts = values.parts.split(",").map((part) => part.trim());
  const unknown = parts.filter((part) => !PARTS.includes(part));
  if (unknown.length > 0 || parts.length === 0)
    throw new Error(
      `--parts ${JSON.stringify(values.parts)} is not allowed: give one or more of ${PARTS.join(", ")}, separated by commas`,
    );
  return new Set(parts);
}

/** The totals line the test command ends with ("N passed, N failed"), from its log. */
const totalsOf = (log) =>
  readFileSync(log, "utf8")
    .split("\n")
    .reverse()
    .find((line) => /^\d+ passed, \d+ failed/.test(line));

async function main() {
  let parts;
  try {
    parts = partsOf(process.argv.slice(2));
  } catch (error) {
    console.error(`test-cost: ${error.message}`);
    process.exit(2);
  }
  let interrupted = false;
  process.on("SIGINT", () => {
    interrupted = true;
  });
  const meter = cpuMeter();
  const logs = mkdtempSync(join(tmpdir(), "test-cost-"));
  const machine = {
    model: cpus()[0]?.model ?? "unknown CPU",
    cores: availableParallelism(),
    node: process.version,
    load: loadavg()[0],
  };
  const rows = [];
  let measured = 0;
  /** Runs and measures one command; its row is kept unless `keep` is false. */
  const measure = async (what, command, args, { keep = true, ...options } = {}) => {
    const log = join(logs, `${measured++}.log`);
    console.error(`test-cost: ${what}…`);
    const row = { what, log, ...(await meter.run(command, args, { ...options, log })) };
    if (keep) rows.push(row);
    if (interrupted) {
      console.log(costTable({ machine, baseline: undefined, how: meter.how, rows }));
      console.error("test-cost: interrupted (Ctrl-C); the rows above are what was measured.");
      process.exit(130);
    }
    return row;
  };
  const self = pathToFileURL(fileURLToPath(import.meta.url)).href;
  const workload = `import(${JSON.stringify(self)}).then((m) => m.baselineWorkload())`;
  const baselineRuns = [];
  const timeBaseline = async () => {
    for (let run = 0; run < BASELINE_RUNS; run++) {
      const row = await measure("baseline", process.execPath, ["--input-type=module", "-e", workload], {
        keep: false,
      });
      baselineRuns.push(row.status === 0 ? row.cpuSeconds : undefined);
    }
  };
  await timeBaseline();
  // Each package's tests run against what its dependencies built; the test command builds for itself.
  const build = parts.has("builds")
    ? await measure("builds (turbo run build --force)", "turbo", [
        "run",
        "build",
        "--force",
        "--output-logs=errors-only",
      ])
    : parts.has("packages")
      ? await measure("builds", "turbo", ["run", "build", "--output-logs=errors-only"], { keep: false })
      : { status: 0 };
  // A failed build is shown whether or not it was asked for: the packages' tests did not run.
  if (build.status !== 0 && !rows.includes(build)) rows.push(build);
  if (parts.has("packages") && build.status === 0) {
    const alone = [];
    for (const { dir, script } of packagesWithTests(root))
      alone.push(
        await measure(`${dir === "." ? "the root's scripts" : dir}: tests alone`, "pnpm", ["run", script], {
          cwd: join(root, dir),
        }),
      );
    rows.push({
      what: "the packages' tests alone, summed",
      wallSeconds: alone.reduce((sum, row) => sum + row.wallSeconds, 0),
      cpuSeconds: alone.some((row) => row.cpuSeconds === undefined)
        ? undefined
        : alone.reduce((sum, row) => sum + row.cpuSeconds, 0),
      status: alone.every((row) => row.status === 0) ? 0 : "a package's, above",
    });
  }
  if (parts.has("whole")) {
    const whole = await measure("the test command (node scripts/test.mjs --force)", process.execPath, [
      "scripts/test.mjs",
      "--force",
    ]);
    whole.result = totalsOf(whole.log);
  }
  await timeBaseline();
  const baseline = baselineRuns.includes(undefined)
    ? undefined
    : { least: Math.min(...baselineRuns), runs: baselineRuns };
  console.log(costTable({ machine, baseline, how: meter.how, rows }));
  process.exit(rows.every((row) => row.status === 0) ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
