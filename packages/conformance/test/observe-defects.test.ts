// `conformance observe` has teeth on ordinary traffic and never cries wolf, from the teeth's one
// catalogue (defects.ts): the project's client sends its ordinary traffic (test/client-traffic.ts:
// it walks every list, with every documented filter and ordering) through the proxy to a planted
// defect, and observe fails exactly the defect's rule results (the same list the active run must
// fail, less the stories' results, which no traffic shows); to a correct target, nothing. The HAR
// recorded on the way gives the same verdicts through `verify --har`. The other answer-side
// defects are judged from a recording in-process (teeth.test.ts): the same judge.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { plannedResults } from "../src/judge/judge.js";
import { runVerify, startObserving } from "../src/traffic/commands.js";
import { runClientTraffic } from "./client-traffic.js";
import { defects } from "./defects.js";
import { type Defect, startFaultyTarget, together } from "./faulty-target.js";

const dir = mkdtempSync(join(tmpdir(), "observe-defects-"));
const RULE_RESULTS = new Set(plannedResults().map((r) => r.id));
/** The live API's kinds of defect the issue names: a filter on the first page only, a documented filter ignored, an ordering ignored. */
const OBSERVED = [
  "AI task filters honoured on the first page only",
  "an ignored status filter",
  "AI task ordering ignored",
];
const none: Defect = { name: "a correct platform", fails: [] };
const observedFails = (d: Defect) => [...new Set(d.fails.filter((id) => RULE_RESULTS.has(id)))];

/**
 * The observed defects, those that touch no operation in common (their `touches`) planted together,
 * as the teeth test packs its live runs: a run's failures must be exactly the union of its
 * defects', and one defect's results are another's only through an operation both touch. Each
 * traffic run sends some 700 requests through observe, the target and the simulator.
 */
function packed(observed: Defect[]): Defect[] {
  const runs: { defects: Defect[]; touched: Set<string> }[] = [];
  for (const defect of observed) {
    const touches = defect.touches;
    if (!touches) throw new Error(`"${defect.name}" says not what it touches: it cannot share a run.`);
    const fits = runs.find((run) => touches.every((t) => !run.touched.has(t)));
    if (fits) {
      fits.defects.push(defect);
      for (const t of touches) fits.touched.add(t);
    } else runs.push({ defects: [defect], touched: new Set(touches) });
  }
  return runs.map((run) => together(run.defects));
}
const REVEALED = [none, ...packed(defects().filter((d) => OBSERVED.includes(d.name)))];

// At most three at a time: each sends some 700 requests, and the other test
// files (the teeth's whole-suite runs among them) share the same two cores. The tests start
// together, so a test's time includes its wait for a slot: each run is bounded from its own start
// (RUN_BOUND_MS), and a test by the runs that may go before it in the queue as well.
const AT_ONCE = 3;
/** A bound for one run that hangs, not an estimate: a run takes about 10 s alone. */
const RUN_BOUND_MS = 300_000;
const TEST_BOUND_MS = Math.ceil(REVEALED.length / AT_ONCE) * RUN_BOUND_MS;
let running = 0;
const waiting: (() => void)[] = [];
async function oneOfAtOnce<T>(work: () => Promise<T>): Promise<T> {
  if (running >= AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  running++;
  let bound: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(),
      new Promise<never>((_, reject) => {
        bound = setTimeout(
          () => reject(new Error(`the run did not end within ${RUN_BOUND_MS / 1000} s of its start`)),
          RUN_BOUND_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(bound);
    running--;
    waiting.shift()?.();
  }
}

function observe(defect: Defect, har: string) {
  return oneOfAtOnce(() => observeOnce(defect, har));
}

async function observeOnce(defect: Defect, har: string) {
  const target = await startFaultyTarget(defect);
  const observing = await startObserving({ upstream: target.url, host: "127.0.0.1", port: 0, record: har });
  try {
    await runClientTraffic({
      baseUrl: observing.url,
      apiKey: target.sim.apiKey,
      resellerApiKey: target.sim.resellerApiKey,
      // The faulty targets run tasks 100 times faster than the platform.
      pollIntervalMs: 20,
      // The defects here are the lists': no rate rule judges them, and observe.test.ts sends the
      // bursts through observe to a correct target.
      bursts: false,
    });
  } finally {
    await observing.stop();
    await target.close();
  }
  return observing.judge.report({
    target: defect.name,
    startedAt: new Date(),
    options: {},
    strict: strictFor(defect),
  });
}

/** As the teeth test runs them: a defect under --strict, a correct variant without (it may warn). */
const strictFor = (defect: Defect) => defect.fails.length > 0 && defect.flags?.strict !== false;

describe.concurrent("observe in front of each planted defect", () => {
  it("covers the filter and ordering defects the issue names", () => {
    expect(REVEALED.flatMap((d) => d.name.split(" + ")).sort()).toEqual([none.name, ...OBSERVED].sort());
  });

  it.each(REVEALED.map((d) => [d.name, d] as const))(
    "%s",
    async (_name, defect) => {
      const har = join(dir, `${REVEALED.indexOf(defect)}.har`);
      const report = await observe(defect, har);
      const failed = report.scenarios.filter((s) => s.status === "failed");
      // Each failure with its reason and first exchanges: what a surprise failed on, and how.
      const why = failed
        .map((s) => `${s.id}: ${s.reason}\n  ${JSON.stringify(s.evidence.slice(0, 3))}`)
        .join("\n");
      expect(failed.map((s) => s.id).sort(), why).toEqual(observedFails(defect).sort());
      for (const result of failed) expect(result.evidence.length, result.id).toBeGreaterThan(0);
      const warned = report.scenarios.filter((s) => s.status === "warned").map((s) => s.id);
      for (const id of warned) expect(defect.warns ?? [], `warned ${id}`).toContain(id);
      if (defect.warns) expect(warned.length).toBeGreaterThan(0);

      const verified = await runVerify(
        { har, report: join(dir, `${REVEALED.indexOf(defect)}-verify`), strict: strictFor(defect) },
        { write: () => {}, env: {} },
      );
      const verdicts = (r: typeof report) => r.scenarios.map((s) => `${s.id} ${s.status}`);
      if (!verified.report) throw new Error(`verify --har wrote no report (exit ${verified.exitCode})`);
      expect(verdicts(verified.report)).toEqual(verdicts(report));
      expect(verified.exitCode).toBe(observedFails(defect).length > 0 ? 1 : 0);
    },
    TEST_BOUND_MS,
  );
});
