// scripts/test-cost.mjs: what it counts (a grandchild's CPU, and, in a cgroup, a process nobody
// waits for), the table it prints, and the parts it refuses. The whole measurement (minutes of the
// test command) is never run here: it is what the script is for.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { baselineWorkload, costTable, cpuMeter, PARTS, partsOf } from "../test-cost.mjs";

const logs = mkdtempSync(join(tmpdir(), "test-cost-test-"));
afterAll(() => rmSync(logs, { recursive: true, force: true }));

/**
 * A Node program that uses `cpuMs` of its own CPU, however slow the machine (bounded by a minute of
 * wall time, far past what a loaded machine needs).
 */
const busy = (cpuMs: number) =>
  `const until = Date.now() + 60000; while (process.cpuUsage().user < ${cpuMs * 1000} && Date.now() < until);`;

// A bound on the orphan's own end, not an estimate: it ends once it has used its CPU, which a loaded
// machine may take seconds to give it.
const meter = cpuMeter({ leftoverWaitMs: 120_000 });
const inCgroup = meter.how.startsWith("a cgroup");

describe("the CPU meter", () => {
  it("counts the CPU of a grandchild its child waits for", async () => {
    const child = `require("node:child_process").spawnSync(process.execPath, ["-e", ${JSON.stringify(busy(200))}]);`;
    const measured = await meter.run(process.execPath, ["-e", child], { log: join(logs, "waited.log") });
    expect(measured.status).toBe(0);
    expect(measured.cpuSeconds).toBeGreaterThanOrEqual(0.2);
  });

  // Chromium's renderers are such processes: the reason a cgroup is used where there is one.
  it.runIf(inCgroup)("counts the CPU of a process its parent never waits for, once it ends", async () => {
    const child = [
      `const c = require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(busy(200))}], { detached: true, stdio: "ignore" });`,
      "c.unref();",
    ].join(" ");
    const measured = await meter.run(process.execPath, ["-e", child], { log: join(logs, "orphan.log") });
    expect(measured.status).toBe(0);
    expect(measured.leftover).toBeUndefined();
    expect(measured.cpuSeconds).toBeGreaterThanOrEqual(0.2);
  });

  it.runIf(inCgroup)("stops the processes a command left running, and says how many", async () => {
    // A process that would sleep two minutes, its parent gone: the meter waits half a second for it.
    const child = [
      `const c = require("node:child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)"], { detached: true, stdio: "ignore" });`,
      "c.unref();",
      "console.log(c.pid);",
    ].join(" ");
    const log = join(logs, "left.log");
    const measured = await cpuMeter({ leftoverWaitMs: 500 }).run(process.execPath, ["-e", child], { log });
    expect(measured.leftover).toBe(1);
    // Gone, or a zombie its new parent has not reaped yet: not running either way.
    const stat = `/proc/${Number(readFileSync(log, "utf8").trim())}/stat`;
    const state = existsSync(stat)
      ? readFileSync(stat, "utf8").slice(readFileSync(stat, "utf8").lastIndexOf(")") + 2)[0]
      : "gone";
    expect(["gone", "Z"]).toContain(state);
  });

  it("answers a command that cannot start as failed, its log saying why", async () => {
    const log = join(logs, "missing.log");
    const measured = await meter.run(join(logs, "no-such-command"), [], { log });
    // In a cgroup the shell that moves the command in says it (exit 127); otherwise the meter does.
    expect(measured.status).toBe(inCgroup ? 127 : "not started");
    expect(readFileSync(log, "utf8")).toMatch(/no-such-command.*(not found|ENOENT)/);
  });
});

describe("the table", () => {
  const machine = { model: "Test CPU", cores: 2, node: "v20.0.0", load: 0.5 };
  const rows = [
    { what: "builds", wallSeconds: 20.04, cpuSeconds: 36, status: 0 },
    {
      what: "the test command",
      wallSeconds: 236.5,
      cpuSeconds: 444.3,
      status: 0,
      result: "2013 passed, 0 failed",
    },
    { what: "spec: tests alone", wallSeconds: 10, cpuSeconds: 15, status: 1, log: "/tmp/x/2.log" },
  ];

  it("gives each row's CPU in baselines, names the machine and how CPU was counted", () => {
    const table = costTable({
      machine,
      baseline: { least: 1.2, runs: [1.3, 1.2, 1.25] },
      how: "a cgroup",
      rows,
    });
    expect(table).toContain("Machine: Test CPU, 2 cores, Node v20.0.0; load average 0.50 at the start.");
    expect(table).toContain(
      "Baseline: 1.20 CPU-s, the least of 3 runs of the fixed workload in scripts/test-cost.mjs, before and after the rest (all: 1.30, 1.20, 1.25).",
    );
    expect(table).toContain("CPU: a cgroup.");
    expect(table).toContain("| builds | 20.0 | 36.0 | 30.0 | ok |");
    expect(table).toContain("| the test command | 236.5 | 444.3 | 370.3 | 2013 passed, 0 failed |");
    expect(table).toContain(
      "| spec: tests alone | 10.0 | 15.0 | 12.5 | FAILED (exit 1), log: /tmp/x/2.log |",
    );
  });

  it("says n/a where CPU was not counted", () => {
    const table = costTable({
      machine,
      baseline: undefined,
      how: "not counted here",
      rows: [{ what: "builds", wallSeconds: 3, cpuSeconds: undefined, status: 0 }],
    });
    expect(table).toContain("Baseline: n/a (CPU not counted).");
    expect(table).toContain("| builds | 3.0 | n/a | n/a | ok |");
  });
});

describe("the parts", () => {
  it("are all of them by default, or those named", () => {
    expect([...partsOf([])]).toEqual(PARTS);
    expect([...partsOf(["--parts", "whole,builds"])]).toEqual(["whole", "builds"]);
  });

  it("refuses an unknown part or flag, saying what is allowed", () => {
    expect(() => partsOf(["--parts", "builds,bogus"])).toThrow(
      `--parts "builds,bogus" is not allowed: give one or more of ${PARTS.join(", ")}, separated by commas`,
    );
    expect(() => partsOf(["--fast"])).toThrow(/--fast/);
  });
});

// Every figure in baselines is relative to this workload: an edit of it would make old figures
// incomparable with new ones without anyone noticing. Its checksum, computed once, is its fingerprint.
it("the baseline workload is the fixed one", () => {
  expect(baselineWorkload(1)).toBe(23608);
});
