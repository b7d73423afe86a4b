// Proof that the suite has teeth and never cries wolf: the whole suite, through the CLI, against
// the correct simulator and Prism finds nothing; against each deliberately faulty variant it fails
// exactly the scenarios aimed at that defect, and no other.
//
// The embedded simulator and Prism go through the built CLI itself. The proxied targets, correct
// and faulty, go through one run host (run-host.mjs: the CLI's own flag parser, then
// runConformance, several runs at a time in one process): the CLI's path without a Node process
// and a module graph per run, which halves what a run costs.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedHints } from "../src/target.js";
import { CORRECT_VARIANTS, DEFECTS } from "./defects.js";
import { type Defect, type FaultyTarget, startFaultyTarget } from "./faulty-target.js";
import { type CliRun, failedIds, type RunHost, runCli, startRunHost } from "./run-cli.js";

const FULL = ["--allow-writes", "--allow-burst", "--strict"];

/**
 * The flags for a faulty target. Its simulator runs tasks at time scale 0.01 (create_volume's
 * 5-15 s become 50-150 ms); the suite is told 0.1, so it polls every 0.5 s and gives a task 6 s
 * instead of 2 s: a loaded machine that answers slowly is never taken for a task that does not
 * finish. The planted slow task still fails, after 6 s.
 */
function flagsFor(target: FaultyTarget, flags: Defect["flags"] = {}) {
  const hints = embeddedHints(target.sim);
  return {
    args: [
      "--target",
      target.url,
      ...FULL.filter((flag) => flag !== "--strict" || flags.strict !== false),
      "--time-scale",
      "0.1",
      "--protection-profile-id",
      String(hints.protectionProfileId),
      ...(flags.gpuFlavor === false ? [] : ["--gpu-flavor", String(hints.gpuFlavor)]),
    ],
    env: { GCORE_API_KEY: target.sim.apiKey, GCORE_RESELLER_API_KEY: target.sim.resellerApiKey },
  };
}

async function against(
  defect: Defect | undefined,
  run: (args: string[], env: Record<string, string>) => Promise<CliRun>,
  flags: Defect["flags"] = defect?.flags,
) {
  const target = await startFaultyTarget(defect);
  try {
    const { args, env } = flagsFor(target, flags);
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
      // Named in every report: the reasons in report.md, a failure per result in junit.xml.
      for (const id of defect.fails) {
        expect(run.files["report.md"]).toContain(`\`${id}\``);
        expect(run.files["junit.xml"]).toContain(`name="${id} (`);
      }
    },
  );

  // Servers that do what the platform's own descriptions allow: no failure, exit 0. Run without
  // --strict: a `should` the spec only infers (x-inferred-required) may warn, nothing else.
  it.each(CORRECT_VARIANTS.map((d) => [d.name, d] as const))(
    "a correct variant passes: %s",
    async (_name, variant) => {
      const run = await against(variant, (args, env) => host.run(args, env), {
        ...variant.flags,
        strict: false,
      });
      const out = run.stdout + run.stderr;
      expect(failedIds(run), out).toEqual([]);
      expect(run.code, out).toBe(0);
      const warned = run.report?.scenarios.filter((s) => s.status === "warned").map((s) => s.id) ?? [];
      for (const id of warned) expect(variant.warns ?? [], out).toContain(id);
      // The variant did what it says: its warnings are there when it lists some.
      if (variant.warns) expect(warned.length, out).toBeGreaterThan(0);
      for (const [id, reason] of Object.entries(variant.skips ?? {})) {
        const result = run.report?.scenarios.find((r) => r.id === id);
        expect(result?.status, out).toBe("skipped");
        expect(result?.reason, out).toMatch(reason);
      }
      // A refusal the spec allows is a skip that quotes it, never a pass or a failure.
      if (variant.flags?.gpuFlavor === false)
        expect(
          run.report?.scenarios.find((r) => r.id === "tasks.quota.error-names-quota")?.reason,
          out,
        ).toMatch(/refused a \d+ GiB volume with 400/);
    },
  );

  it("a discovery answer that breaks the spec: exit 1, and what needs the project skips, naming why", async () => {
    const defect = DEFECTS.find((d) => d.name.startsWith("a discovery answer"));
    const run = await against(defect, (args, env) => host.run(args, env));
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const result = (id: string) => run.report?.scenarios.find((s) => s.id === id);
    expect(result("discovery.default-project")?.reason).toMatch(
      /the default project's id is "\d+", not an integer/,
    );
    expect(result("discovery.default-project")?.evidence[0]).toMatchObject({
      path: "/cloud/v1/projects",
      status: 200,
    });
    expect(result("tasks.create.answers-tasks")?.status).toBe("skipped");
    expect(result("tasks.create.answers-tasks")?.reason).toMatch(
      /needs a project: .*discovery\.default-project/,
    );
    // What needs no project still runs.
    expect(result("pagination.page.count-is-total.listAiTasks")?.status).toBe("passed");
  });

  it("without --gpu-flavor the quota error path still runs: ERROR, a reason naming a quota, created_resources null", async () => {
    const run = await against(undefined, (args, env) => host.run(args, env), { gpuFlavor: false });
    const out = run.stdout + run.stderr;
    expect(failedIds(run), out).toEqual([]);
    expect(run.code, out).toBe(0);
    const status = (id: string) => run.report?.scenarios.find((s) => s.id === id);
    expect(status("tasks.quota.error-names-quota")?.status, out).toBe("passed");
    expect(status("tasks.quota.created-resources-null")?.status, out).toBe("passed");
    // What only the quota check can tell skips, saying how to get it.
    for (const id of ["tasks.quota.error-names-excess", "tasks.quota.nothing-created"]) {
      expect(status(id)?.status, id).toBe("skipped");
      expect(status(id)?.reason, id).toMatch(/--gpu-flavor/);
    }
    expect(run.report?.createdResources.filter((r) => r.type === "task").length).toBe(2);
  });
});
