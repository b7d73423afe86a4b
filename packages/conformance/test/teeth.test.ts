// Proof that the suite has teeth and never cries wolf: the whole suite, through the CLI, against
// the correct simulator and Prism finds nothing; against each deliberately faulty variant it fails
// exactly the scenarios aimed at that defect, and no other.

import { describe, expect, it } from "vitest";
import { simulatorHints } from "../src/target.js";
import { DEFECTS } from "./defects.js";
import { startFaultyTarget } from "./faulty-target.js";
import { failedIds, runCli } from "./run-cli.js";

const FULL = ["--allow-writes", "--allow-burst", "--strict"];

async function runAgainst(defect: (typeof DEFECTS)[number] | undefined) {
  const target = await startFaultyTarget(defect);
  try {
    const hints = simulatorHints(target.sim);
    return await runCli(
      [
        "--target",
        target.url,
        ...FULL,
        "--time-scale",
        "0.01",
        "--protection-profile-id",
        String(hints.protectionProfileId),
        "--gpu-flavor",
        String(hints.gpuFlavor),
      ],
      { GCORE_API_KEY: target.sim.apiKey, GCORE_RESELLER_API_KEY: target.sim.resellerApiKey },
    );
  } finally {
    await target.close();
  }
}

describe("no false positives", () => {
  it("the embedded simulator passes every scenario, writes and burst included", async () => {
    const run = await runCli(FULL);
    expect(failedIds(run)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report?.summary.skipped).toBe(0);
    expect(run.report?.summary.passed).toBeGreaterThan(60);
  });

  it("the simulator behind the pass-through proxy passes too (the proxy plants nothing itself)", async () => {
    const run = await runAgainst(undefined);
    expect(failedIds(run)).toEqual([]);
    expect(run.code).toBe(0);
    expect(run.report?.summary.skipped).toBe(0);
  });

  it("Prism passes, and every scenario it cannot answer is skipped with the reason", async () => {
    const run = await runCli(["--target", "prism", ...FULL]);
    expect(failedIds(run)).toEqual([]);
    expect(run.code).toBe(0);
    const skipped = run.report?.scenarios.filter((s) => s.status === "skipped") ?? [];
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(s.reason).toMatch(/Prism/);
    expect(run.report?.summary.passed).toBeGreaterThan(15);
  });
});

describe.concurrent("every planted defect is caught by exactly its scenarios", () => {
  it.each(DEFECTS.map((d) => [d.name, d] as const))("%s", async (_name, defect) => {
    const run = await runAgainst(defect);
    expect(run.report, run.stdout + run.stderr).toBeDefined();
    expect(failedIds(run)).toEqual([...defect.fails].sort());
    expect(run.code).toBe(1);
  });
});
