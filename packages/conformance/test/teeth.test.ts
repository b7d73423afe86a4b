// Proof that the suite has teeth and never cries wolf: the whole suite, through the CLI, against
// the correct simulator and Prism finds nothing; against each deliberately faulty variant it fails
// exactly the scenarios aimed at that defect, and no other.
//
// The embedded simulator and Prism go through the built CLI itself. The proxied targets, correct
// and faulty, go through one run host (run-host.mjs: the CLI's own flag parser, then
// runConformance, several runs at a time in one process): the CLI's path without a Node process
// and a module graph per run, which halves what a run costs.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorHints } from "../src/target.js";
import { DEFECTS } from "./defects.js";
import { type FaultyTarget, startFaultyTarget } from "./faulty-target.js";
import { type CliRun, failedIds, type RunHost, runCli, startRunHost } from "./run-cli.js";

const FULL = ["--allow-writes", "--allow-burst", "--strict"];

/**
 * The flags for a faulty target. Its simulator runs tasks at time scale 0.01 (create_volume's
 * 5-15 s become 50-150 ms); the suite is told 0.1, so it polls every 0.5 s and gives a task 6 s
 * instead of 2 s: a loaded machine that answers slowly is never taken for a task that does not
 * finish. The planted slow task still fails, after 6 s.
 */
function flagsFor(target: FaultyTarget) {
  const hints = simulatorHints(target.sim);
  return {
    args: [
      "--target",
      target.url,
      ...FULL,
      "--time-scale",
      "0.1",
      "--protection-profile-id",
      String(hints.protectionProfileId),
      "--gpu-flavor",
      String(hints.gpuFlavor),
    ],
    env: { GCORE_API_KEY: target.sim.apiKey, GCORE_RESELLER_API_KEY: target.sim.resellerApiKey },
  };
}

async function against(
  defect: (typeof DEFECTS)[number] | undefined,
  run: (args: string[], env: Record<string, string>) => Promise<CliRun>,
) {
  const target = await startFaultyTarget(defect);
  try {
    const { args, env } = flagsFor(target);
    return await run(args, env);
  } finally {
    await target.close();
  }
}

// One concurrent group, at most maxConcurrency runs at a time (vitest.config.ts): a run waits on
// its own pacing (50 requests a second) for most of its time, so several share two cores well.
let host: RunHost;
beforeAll(async () => {
  host = await startRunHost();
});
afterAll(() => host?.close());

describe.concurrent("teeth", () => {
  it("no false positive: the embedded simulator passes every scenario, writes and burst included", async () => {
    const run = await runCli(FULL);
    expect(failedIds(run), run.stdout + run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report?.summary.skipped).toBe(0);
    expect(run.report?.summary.passed).toBeGreaterThan(60);
  });

  it("no false positive: Prism passes, and every scenario it cannot answer is skipped with the reason", async () => {
    const run = await runCli(["--target", "prism", ...FULL]);
    expect(failedIds(run), run.stdout + run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    const skipped = run.report?.scenarios.filter((s) => s.status === "skipped") ?? [];
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(s.reason).toMatch(/Prism/);
    expect(run.report?.summary.passed).toBeGreaterThan(15);
  });

  it("no false positive: the simulator behind the pass-through proxy passes (the proxy plants nothing itself)", async () => {
    const run = await against(undefined, (args, env) => host.run(args, env));
    expect(failedIds(run), run.stdout + run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report?.summary.skipped).toBe(0);
  });

  it.each(DEFECTS.map((d) => [d.name, d] as const))(
    "caught by exactly its scenarios: %s",
    async (_name, defect) => {
      const run = await against(defect, (args, env) => host.run(args, env));
      expect(run.report, run.stdout + run.stderr).toBeDefined();
      expect(failedIds(run), run.stdout + run.stderr).toEqual([...defect.fails].sort());
      expect(run.code).toBe(1);
    },
  );
});
