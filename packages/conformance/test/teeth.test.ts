// Proof that the suite has teeth and never cries wolf, from one catalogue (defects.ts) with one
// expectation list per defect.
//
// In-process, in milliseconds: one correct run through the pass-through proxy is recorded (every
// exchange as the judge read it); each defect that changes answers is applied to that recording
// and the recording judged again by the one judge, as `verify --har` would judge that traffic.
// Its failed results must be exactly the defect's rule results.
//
// Live, through the CLI's path in this process (the CLI's flag parser, then runConformance, several
// runs at a time): the defects the recording cannot show (a changed request, a result of a story),
// and the runs that must find nothing (Prism, the correct variants that change requests, all in one
// run). A server without a limiter is judged from a burst built by hand: a
// live burst's speed is the machine's. Every run is asked for as the file starts, so the live ones
// go on while the recorded one is judged in-process.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { operationById } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedHints } from "../src/discovery/target.js";
import { burstThreshold, requestRate } from "../src/facts/rate.js";
import { specModel } from "../src/facts/spec.js";
import { createJudge, plannedResults } from "../src/judge/judge.js";
import type { ObservedExchange } from "../src/shared/exchange.js";
import { correctVariants, defects } from "./defects.js";
import { type Answer, type Defect, type FaultyTarget, startFaultyTarget, together } from "./faulty-target.js";
import { type CliRun, failedIds } from "./run-cli.js";
import { runInProcess } from "./run-in-process.js";

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

/** Every result id the judge gives: what a recording can show. */
const RULE_RESULTS = new Set(plannedResults().map((r) => r.id));

/** Whether only a live run shows the defect: it changes requests, a story's result, or the simulator. */
const live = (d: Defect) =>
  d.liveOnly !== undefined ||
  d.request !== undefined ||
  d.simulator !== undefined ||
  d.flags !== undefined ||
  d.fails.some((id) => !RULE_RESULTS.has(id));

const DEFECTS = defects();

/**
 * Live defects packed into as few runs as possible: those that touch no operation in common (the
 * `touches` of each) share a run, whose failed results must be exactly the union of theirs. A run
 * costs two CPU-seconds whatever it plants; one defect's results are another's only through an
 * operation both touch, and those never share. A defect that leaves a discovery step without its
 * finding hides all that needs it: it shares only with those that break another step. The
 * discovery's steps read lists of their own and need none of each other's findings
 * (src/discovery/prepare.ts), so neither hides the other's failures. A defect that fits no other
 * run may still join those: when it touches only operations whose path names no place (no project,
 * no region: nothing the discovery finds), their results do not need what it left unfound.
 */
/** A run's defects, the operations they touch, and the discovery steps they break. */
type Packed = { defects: Defect[]; touched: Set<string> | undefined; steps?: Set<string> };
function groups(defects: Defect[]): Defect[][] {
  const packed: Packed[] = [];
  for (const defect of defects) {
    if (defect.breaksDiscovery) {
      packDiscovery(packed, defect);
      continue;
    }
    const touches = defect.touches;
    const free = (g: Packed) => touches?.every((t) => !g.touched?.has(t));
    const fits =
      (touches && packed.find((g) => g.touched && !g.steps && free(g))) ??
      (placeless(defect) ? packed.find((g) => g.steps && free(g)) : undefined);
    if (fits && touches) {
      fits.defects.push(defect);
      fits.touched ??= new Set();
      for (const t of touches) fits.touched.add(t);
    } else packed.push({ defects: [defect], touched: touches && new Set(touches) });
  }
  return packed.map((g) => g.defects);
}

/** Whether a defect touches only operations whose path has no parameter, and fails no discovery step. */
function placeless(defect: Defect): boolean {
  const model = specModel();
  return (
    !defect.fails.some((id) => id.startsWith("discovery.")) &&
    (defect.touches ?? []).length > 0 &&
    (defect.touches ?? []).every((t) => {
      const operation = model.operations.find((o) => o.operationId === t);
      return operation !== undefined && !operation.parameters.some((p) => p.in === "path");
    })
  );
}

/** A defect that breaks a discovery step, into the first run of such defects that breaks other steps. */
function packDiscovery(packed: Packed[], defect: Defect) {
  const step = defect.fails.find((id) => id.startsWith("discovery."));
  if (!step) throw new Error(`"${defect.name}" breaks the discovery but fails no discovery step.`);
  const fits = packed.find((g) => g.steps && !g.steps.has(step));
  if (fits?.steps) {
    fits.defects.push(defect);
    fits.steps.add(step);
  } else packed.push({ defects: [defect], touched: undefined, steps: new Set([step]) });
}

const VARIANTS = correctVariants();

/**
 * The recorded correct run with a defect's answer changes applied, judged again. `sim` is the
 * recording's simulator (a defect may ask it what exists). The recording is followed by a burst
 * built by hand, answered as a server that keeps the spec's rate answers it: its 429s are there
 * however slow the machine made the recorded run's own burst, for the defects that change them.
 */
function judgeWith(planted: Defect, recording: ObservedExchange[], sim: FaultyTarget["sim"]) {
  // A defect of its own: some count the answers they change, and the live runs use theirs.
  const defect = [...defects(), ...correctVariants()].find((d) => d.name === planted.name) ?? planted;
  const judge = createJudge();
  for (const recorded of [...recording, ...burstAfter(recording, requestRate().limit)]) {
    if (recorded.status === null || !defect.response) {
      judge.judge(recorded);
      continue;
    }
    const url = new URL(recorded.url, "http://recorded");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(recorded.requestHeaders))
      if (value !== undefined) headers[name] = value;
    const exchange = {
      method: recorded.method,
      path: url.pathname,
      query: url.searchParams,
      rawHeaders: Object.keys(headers),
      headers,
      body: undefined,
    };
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(recorded.responseHeaders))
      if (value !== undefined && name !== "content-length") responseHeaders[name] = value;
    let body: unknown;
    try {
      body = recorded.body ? JSON.parse(recorded.body) : undefined;
    } catch {
      body = undefined;
    }
    const answer: Answer = { status: recorded.status, headers: responseHeaders, body };
    defect.response(exchange, answer, sim);
    const text = answer.text ?? (answer.body === undefined ? "" : JSON.stringify(answer.body));
    judge.judge({ ...recorded, status: answer.status, responseHeaders: answer.headers, body: text });
  }
  return judge.results({ strict: true });
}

/**
 * A burst built by hand from one of the recording's answers, after it: more answers than the burst
 * rule lets through, one token, all within one period, as a server whose limit is `limit` requests
 * a period (0: none) answers them: the requests past the limit meet the spec's exceeded status.
 */
function burstAfter(recording: ObservedExchange[], limit: number): ObservedExchange[] {
  const { periodSeconds, exceededStatus } = requestRate();
  const path = operationById(specModel(), "getCurrentClient").path;
  const template = recording.find(
    (e) => e.method === "GET" && e.status === 200 && new URL(e.url, "http://recorded").pathname === path,
  );
  if (!template) throw new Error(`the recording holds no 200 of GET ${path}`);
  const count = burstThreshold() + 10;
  const step = (periodSeconds * 1000) / (2 * count);
  const start = Math.max(...recording.map((e) => e.at + e.durationMs)) + 2 * periodSeconds * 1000;
  return Array.from({ length: count }, (_, i) => {
    const limited = limit > 0 && i >= limit;
    return {
      ...template,
      at: start + i * step,
      durationMs: 1,
      ...(limited
        ? {
            status: exceededStatus,
            responseHeaders: { "content-type": "application/json", "retry-after": String(periodSeconds) },
            body: JSON.stringify({ message: "slow down" }),
          }
        : {}),
    };
  });
}

/** The recording, then a burst built by hand (burstAfter), judged. */
function judgeBurst(recording: ObservedExchange[], limit: number) {
  const judge = createJudge();
  for (const recorded of [...recording, ...burstAfter(recording, limit)]) judge.judge(recorded);
  return judge.results({ strict: true });
}

// Every run of this file in its process, asked for as the file starts: a run waits on its own
// pacing (50 requests a second) for most of its time, its scenarios in a worker thread of their
// own, so the recorded run, Prism's and the live ones share two cores well, and the in-process
// judging of the recording overlaps the live runs still going. No run host: its start and module
// graph cost 1.7 CPU-s, this process has the modules loaded. At most RUNS_AT_ONCE at a time: more
// swamp two cores (vitest.config.ts).
const RUNS_AT_ONCE = 8;
let running = 0;
const waiting: (() => void)[] = [];
/** A run once fewer than RUNS_AT_ONCE are going, in the order asked. */
async function inTurn<T>(run: () => Promise<T>): Promise<T> {
  if (running >= RUNS_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await run();
  } finally {
    running--;
    waiting.shift()?.();
  }
}
/** Every run asked for: the file ends once each has ended, whichever tests ran. */
const asked: Promise<unknown>[] = [];
function ask<T>(run: Promise<T>): Promise<T> {
  asked.push(run.catch(() => undefined));
  return run;
}

/** The live defects but the burst's, packed into runs. */
const LIVE_GROUPS = groups(DEFECTS.filter((d) => live(d) && !d.burst));
/**
 * A live run's flags without the burst: it is judged from the recording and by hand (below), no
 * live defect touches a rate-limit result, and it would cost each run some 200 requests.
 */
const withoutBurst = (args: string[]) => args.filter((arg) => arg !== "--allow-burst");
/** One run per group, whichever test asks first: a test that reads more of a run shares it. */
const liveRuns = new Map<Defect[], Promise<CliRun>>();
function liveRun(group: Defect[]): Promise<CliRun> {
  let run = liveRuns.get(group);
  if (!run) {
    run = ask(inTurn(() => against(together(group), (args, env) => runInProcess(withoutBurst(args), env))));
    liveRuns.set(group, run);
  }
  return run;
}
/** The correct variants only a live run shows (they change requests). */
const LIVE_VARIANTS = VARIANTS.filter(live);
let variantsRun: Promise<CliRun> | undefined;
/**
 * One run for every live variant, without --strict, with the flags any of them asks for: each
 * changes requests of its own operation only (a volume's size, the current client's pace), so the
 * others neither hide nor cause what one shows.
 */
function liveVariantsRun(): Promise<CliRun> {
  const flags = Object.assign({}, ...LIVE_VARIANTS.map((v) => v.flags), { strict: false });
  variantsRun ??= ask(
    inTurn(() => against(together(LIVE_VARIANTS), (args, env) => runInProcess(args, env), flags)),
  );
  return variantsRun;
}
/**
 * Prism answers from the spec alone, a tool we did not write: only a whole run against it shows
 * that the suite finds nothing on what merely matches the spec's shapes. Its start (a process of
 * its own reading the spec) is the longest of any run: asked early.
 */
let prism: Promise<CliRun> | undefined;
const prismRun = () => {
  prism ??= ask(inTurn(() => runInProcess(["--target", "prism", ...FULL])));
  return prism;
};
/**
 * Without --gpu-flavor the suite sends other requests (the quota path's volume instead of
 * check_limits): what it then proves needs them sent. Only the task stories run (TASK_RESULTS),
 * whose results and created tasks its test reads: that a whole run without --gpu-flavor fails
 * nothing is the live variants' run's proof (a whole run, without --gpu-flavor, nothing failed or
 * warned beyond what a variant lists).
 */
const TASK_RESULTS = ["--only", "tasks.*"];
let noGpuFlavor: Promise<CliRun> | undefined;
const noGpuFlavorRun = () => {
  noGpuFlavor ??= ask(
    inTurn(() =>
      against(undefined, (args, env) => runInProcess([...withoutBurst(args), ...TASK_RESULTS], env), {
        gpuFlavor: false,
      }),
    ),
  );
  return noGpuFlavor;
};
/** The correct run the in-process tests judge again, every exchange recorded; its target stays up for them. */
let recorded: Promise<{ target: FaultyTarget; run: CliRun; file: string }> | undefined;
const recordedRun = () => {
  recorded ??= ask(
    inTurn(async () => {
      const target = await startFaultyTarget(undefined);
      const file = join(mkdtempSync(join(tmpdir(), "teeth-recording-")), "exchanges.jsonl");
      const { args, env } = flagsFor(target);
      return { target, file, run: await runInProcess(args, env, { recordExchanges: file }) };
    }),
  );
  return recorded;
};
beforeAll(() => {
  // The variants' first: the in-process tests wait for it (below).
  liveVariantsRun();
  prismRun();
  recordedRun();
  for (const group of LIVE_GROUPS) liveRun(group);
  noGpuFlavorRun();
});
afterAll(async () => {
  await Promise.all(asked);
  await recorded
    ?.then(async ({ target, file }) => {
      await target.close();
      rmSync(dirname(file), { recursive: true, force: true });
    })
    .catch(() => undefined);
});

describe("teeth in-process: each answer-side defect applied to one recorded correct run", () => {
  let recording: ObservedExchange[] = [];
  let target: FaultyTarget;
  beforeAll(async () => {
    const { run, file, target: recordedOn } = await recordedRun();
    target = recordedOn;
    // The slow variant answers one request at a time on this process's timers, a burst's worth
    // within the suite's bound for an answer: judging here, whole seconds without a pause, would
    // hold them up past it. The other runs' servers only answer, a pause later.
    await liveVariantsRun();
    // The recorded run is the proof that a correct platform fails nothing (writes, burst and
    // --strict included), and that the proxy plants nothing. The embedded simulator's own run is
    // report-html.test.ts's conformant one.
    const out = run.stdout + run.stderr;
    expect(failedIds(run), out).toEqual([]);
    expect(run.code, out).toBe(0);
    // Nothing skipped, but what the machine's speed decides: a burst this loaded machine made too
    // slow to exceed the rate proves nothing, and says so.
    for (const s of run.report?.scenarios.filter((r) => r.status === "skipped") ?? []) {
      expect(s.id, out).toMatch(/^rate-limit\./);
      expect(s.reason, out).toMatch(/never exceeded|no 429/);
    }
    expect(run.report?.summary.passed).toBeGreaterThan(60);
    recording = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ObservedExchange);
  }, 300_000);

  it("the recording judged again, a burst kept to the spec's rate after it, gives the run's own verdict: nothing fails", () => {
    expect(recording.length).toBeGreaterThan(100);
    const results = judgeWith({ name: "none", fails: [] }, recording, target.sim);
    expect(results.filter((r) => r.status === "failed").map((r) => r.id)).toEqual([]);
    expect(results.filter((r) => r.status === "passed").length).toBeGreaterThan(40);
  });

  it.each(DEFECTS.filter((d) => d.response && !d.liveOnly).map((d) => [d.name, d] as const))(
    "caught by exactly its rule results: %s",
    (_name, defect) => {
      const results = judgeWith(defect, recording, target.sim);
      const failed = results
        .filter((r) => r.status === "failed")
        .map((r) => r.id)
        .sort();
      const why = results
        .filter((r) => r.status === "failed")
        .map((r) => `${r.id}: ${r.reason}`)
        .join("\n");
      expect(failed, why).toEqual(defect.fails.filter((id) => RULE_RESULTS.has(id)).sort());
      // Each failure says why, with the exchanges that show it.
      for (const r of results.filter((r) => r.status === "failed")) {
        expect(r.reason).toMatch(/exchanges break it/);
        expect(r.evidence.length).toBeGreaterThan(0);
      }
    },
  );

  it.each(VARIANTS.filter((d) => d.response && !live(d)).map((d) => [d.name, d] as const))(
    "a correct variant fails nothing: %s",
    (_name, variant) => {
      const results = judgeWith(variant, recording, target.sim);
      expect(
        results
          .filter((r) => r.status === "failed" && !(variant.warns ?? []).includes(r.id))
          .map((r) => r.id),
      ).toEqual([]);
    },
  );
  // A burst needs no live run to be judged: the answers a server gives one, built by hand from a
  // recorded answer and placed within one period, are judged as those of a fast machine's burst. A
  // live burst's speed is the machine's: a loaded one never exceeds the rate, and proves nothing.
  it.each(DEFECTS.filter((d) => d.burst).map((d) => [d.name, d] as const))(
    "caught by exactly its results, a burst built by hand: %s",
    (_name, defect) => {
      const failed = (limit: number) =>
        judgeBurst(recording, limit)
          .filter((r) => r.status === "failed")
          .map((r) => r.id)
          .sort();
      expect(failed(defect.simulator?.rateLimit ?? requestRate().limit)).toEqual([...defect.fails].sort());
      // The same burst from a server that keeps the spec's rate fails nothing.
      expect(failed(requestRate().limit)).toEqual([]);
    },
  );
});

describe.concurrent("teeth live", () => {
  it("no false positive: Prism passes, and every scenario it cannot answer is skipped with the reason", async () => {
    const run = await prismRun();
    expect(failedIds(run), run.stdout + run.stderr).toEqual([]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const skipped = run.report?.scenarios.filter((s) => s.status === "skipped") ?? [];
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(s.reason).toMatch(/Prism/);
    expect(run.report?.summary.passed).toBeGreaterThan(15);
  });

  it.each(LIVE_GROUPS.map((g) => [g.map((d) => d.name).join(" + "), g] as const))(
    "caught by exactly their results, live: %s",
    async (_name, group) => {
      const run = await liveRun(group);
      const fails = [...new Set(group.flatMap((d) => d.fails))].sort();
      expect(run.report, run.stdout + run.stderr).toBeDefined();
      expect(failedIds(run), run.stdout + run.stderr).toEqual(fails);
      expect(run.code).toBe(1);
      // Named in every report: the reasons in report.md, a failure per result in junit.xml.
      for (const id of fails) {
        expect(run.files["report.md"]).toContain(`\`${id}\``);
        expect(run.files["junit.xml"]).toContain(`name="${id} (`);
      }
    },
  );

  // Servers that do what the platform's own descriptions allow: no failure, exit 0. Run without
  // --strict: a `should` the spec only infers (x-inferred-required) may warn, nothing else. The live
  // variants share one run (each changes requests the other leaves alone), each test its own checks.
  it.each(LIVE_VARIANTS.map((d) => [d.name, d] as const))(
    "a correct variant passes, live: %s",
    async (_name, variant) => {
      const run = await liveVariantsRun();
      const out = run.stdout + run.stderr;
      expect(failedIds(run), out).toEqual([]);
      expect(run.code, out).toBe(0);
      const warned = run.report?.scenarios.filter((s) => s.status === "warned").map((s) => s.id) ?? [];
      for (const id of warned) expect(variant.warns ?? [], out).toContain(id);
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
    const group = LIVE_GROUPS.find((g) => g.some((d) => d.name.startsWith("a discovery answer")));
    if (!group) throw new Error('test/defects.ts has no live defect "a discovery answer …".');
    const run = await liveRun(group);
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
    const run = await noGpuFlavorRun();
    const out = run.stdout + run.stderr;
    expect(failedIds(run), out).toEqual([]);
    expect(run.code, out).toBe(0);
    const status = (id: string) => run.report?.scenarios.find((s) => s.id === id);
    expect(status("tasks.quota.error-names-quota")?.status, out).toBe("passed");
    expect(status("tasks.error.created-resources-null")?.status, out).toBe("passed");
    // What only the quota check can tell skips, saying how to get it.
    for (const id of ["tasks.quota.error-names-excess", "tasks.quota.nothing-created"]) {
      expect(status(id)?.status, id).toBe("skipped");
      expect(status(id)?.reason, id).toMatch(/--gpu-flavor/);
    }
    expect(run.report?.createdResources.filter((r) => r.type === "task").length).toBe(2);
  });
});
