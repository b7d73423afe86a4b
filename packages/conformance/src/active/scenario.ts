// `scenario()` declares one conformance scenario as a vitest test: its id, severity and the
// operation it exercises travel in the test's meta to the reporters, with the evidence (every
// exchange it made). Preconditions it cannot meet (no --allow-writes, Prism keeps no state, no
// reseller key) make it skip with the reason, never pass vacuously. A `should` scenario that fails
// is a warning unless --strict.

import picomatch from "picomatch";
import { inject, test } from "vitest";
import { unmetNeed } from "../discovery/needs.js";
import { pathOf } from "../http/answer.js";
import { type Answer, createHttp, curlOfExchange, evidenceOf, excerptOf, type Http } from "../http/http.js";
import { shownHeaders } from "../http/shown-headers.js";
import { activityPoster, hooksOf } from "../report/progress.js";
import type { Activity } from "../shared/activity.js";
import type {
  CreatedResource,
  Evidence,
  Need,
  RunContext,
  ScenarioMeta,
  Severity,
} from "../shared/context.js";
import { flatHeaders } from "../shared/exchange.js";
import { createPacer, type Pacer } from "../shared/pacer.js";
import { createRedactor } from "../shared/redact.js";
import { confirmFailure, failureEvidence } from "./flaky.js";
import { runJudge, stepUnfinished } from "./run-judge.js";
import { noteExchange } from "./run-values.js";

export { unmetNeed } from "../discovery/needs.js";
export type { Need } from "../shared/context.js";
export { check, Deviation } from "./check.js";

export interface ScenarioDefinition {
  id: string;
  title: string;
  severity: Severity;
  /** operationId(s) exercised. */
  operation: string;
  /** The registry rule it reports (src/rules/), when it is one. */
  check?: string;
  /**
   * It says a request must be refused or answered one status: a 2xx fails it as a wrong refusal
   * does, and test/defects.ts holds an "accepts" defect for it (read from this file's text).
   */
  refuses?: true;
  /** Results of the registry's rules that judge its calls: selected by --only, it runs for them. */
  feeds?: string[];
  needs?: Need[];
  /** What it would call, for --dry-run, e.g. "GET /cloud/v1/regions?limit=1". */
  calls: string[];
}

export interface ScenarioApi {
  run: RunContext;
  http: Http;
  /** Stops the scenario as skipped, with the reason in the report. */
  skip(reason: string): never;
  /** Evidence of this result's own: exchanges the judge judged for it, whoever made them. */
  show(...evidence: Evidence[]): void;
  /** Adds answers another scenario received (or their evidence) to this one's evidence (what it judged). */
  cite(...answers: (Answer | Evidence)[]): void;
  /**
   * Says the result is flaky: it would have failed on `failed` (a 5xx or lost answer), which did
   * not repeat when its request was sent again (`again`). Unless it fails after all, it is reported so.
   */
  flaky(problem: string, failed: Evidence[], again: Evidence[]): void;
  /** Lists a resource the scenario created, so a live user can clean up. */
  created(resource: CreatedResource): void;
  /** The project and region of the run (the scenario declares the needs "project" and "region"). */
  place(): { project_id: number; region_id: number };
  /** Time the result took before its test (the discovery's step): counted in its durationMs. */
  took(ms: number): void;
}

let shared: Pacer | undefined;
function sharedPacer(run: RunContext): Pacer {
  // One pacer for the whole run: files share the worker (isolate: false, one worker).
  shared ??= createPacer(run.rateLimit);
  return shared;
}

/**
 * The HTTP layer of a scenario or driver: the run's one pacer, every exchange to the run's one
 * judge (whatever the caller itself looks at), named as made `by` it.
 */
export function runHttp(run: RunContext, by: string, record?: (evidence: Evidence) => void): Http {
  const activity = run.activity === undefined ? undefined : hooksOf(activityPoster(run.activity));
  return createHttp({
    baseUrl: run.target.url,
    apiKey: run.target.apiKey,
    resellerApiKey: run.target.resellerApiKey,
    pacer: sharedPacer(run),
    timeScale: run.timeScale,
    ...(record ? { record } : {}),
    ...(activity ? { sending: activity.sending, waiting: activity.waiting } : {}),
    exchanged: (exchange) => {
      activity?.exchanged(exchange.at, exchange.durationMs);
      runJudge(run).judge(exchange);
      noteExchange(run, exchange);
    },
    by,
  });
}

export function scenario(definition: ScenarioDefinition, body: (api: ScenarioApi) => Promise<void>): void {
  test(`${definition.id} — ${definition.title}`, async (ctx) => {
    const run = inject("conformance");
    const meta = ctx.task.meta as ScenarioMeta;
    meta.scenario = {
      id: definition.id,
      title: definition.title,
      severity: definition.severity,
      operation: definition.operation,
      ...(definition.check === undefined ? {} : { check: definition.check }),
      calls: definition.calls,
    };
    meta.evidence = [];
    const skip = (reason: string): never => {
      meta.reason = reason;
      ctx.skip(reason);
      throw new Error("unreachable");
    };
    skipUnlessRun(definition, run, meta, skip);
    tell(run, { kind: "scenario", id: definition.id });
    const api = scenarioApi(definition, run, meta, skip);
    try {
      await body(api);
    } catch (error) {
      if ((error as { code?: string })?.code === "VITEST_PENDING") throw error;
      if (await failed(error, definition, run, meta)) throw error;
    }
  });
}

/** Skips (throws) a scenario --only leaves out, a dry run's, and one whose needs the run does not meet. */
function skipUnlessRun(
  definition: ScenarioDefinition,
  run: RunContext,
  meta: ScenarioMeta,
  skip: (reason: string) => never,
): void {
  if (run.only.length > 0 && !picomatch.isMatch(definition.id, run.only)) {
    meta.unselected = true;
    // A story whose calls a selected rule judges still makes them; its own result is left out.
    const feeding = definition.feeds?.some((id) => picomatch.isMatch(id, run.only));
    if (!feeding || run.dryRun) skip("not selected by --only");
  }
  const unmet = unmetNeed(definition.needs ?? [], run);
  if (run.dryRun) {
    meta.plan = unmet ? "skip" : "run";
    skip(unmet ?? "dry run");
  }
  if (unmet) skip(unmet);
}

/** What a scenario's body is given: its HTTP layer, and what it tells of its result, kept in `meta`. */
function scenarioApi(
  definition: ScenarioDefinition,
  run: RunContext,
  meta: ScenarioMeta,
  skip: (reason: string) => never,
): ScenarioApi {
  const http = runHttp(run, definition.id, (evidence) => meta.evidence?.push(evidence));
  // What a scenario cites itself is redacted with the run's keys, as the HTTP layer redacts.
  const redact = createRedactor([run.target.apiKey, run.target.resellerApiKey]);
  return {
    run,
    http,
    skip,
    show: (...evidence) => meta.evidence?.push(...evidence),
    cite: (...answers) => {
      for (const a of answers)
        meta.evidence?.push("text" in a ? citedAnswer(a, redact) : { ...a, cited: true });
    },
    flaky: (problem, failed, again) => markFlaky(meta, run, problem, failed, again),
    created: (resource) => {
      meta.created ??= [];
      meta.created.push(resource);
    },
    place: () => {
      const { projectId, regionId } = run.discovered;
      const unmet = unmetNeed(["project", "region"], run);
      if (unmet || projectId === undefined || regionId === undefined)
        return skip(unmet ?? "needs a project and a region");
      return { project_id: projectId, region_id: regionId };
    },
    took: (ms) => {
      meta.tookMs = ms;
    },
  };
}

/** The exchange as its HTTP layer recorded it (its number and request), else read from the answer. */
function citedAnswer(a: Answer, redact: (text: string) => string): Evidence {
  return {
    ...(evidenceOf(a) ?? {}),
    method: a.method,
    path: pathOf(a.url),
    status: a.status,
    excerpt: excerptOf(a.text),
    contentType: a.contentType,
    responseHeaders: shownHeaders(flatHeaders(a.headers), redact),
    cited: true,
  };
}

/** ScenarioApi.flaky: the exchanges it would have failed on and those sent again, and why, in `meta`. */
function markFlaky(
  meta: ScenarioMeta,
  run: RunContext,
  problem: string,
  failed: Evidence[],
  again: Evidence[],
) {
  meta.evidence ??= [];
  const evidence = meta.evidence;
  meta.failedOn = [...(meta.failedOn ?? []), ...failed.map((e) => indexIn(evidence, e))];
  meta.curl ??= curlOfExchange(failed[0]?.seq, run.keySources);
  meta.flaky = {
    retriedOn: [...(meta.flaky?.retriedOn ?? []), ...again.map((e) => indexIn(evidence, e))],
  };
  const answered = again.map((e) => `${e.method} ${e.path} → ${e.status ?? "no answer"}`);
  meta.reason = [meta.reason, `${problem}\nflaky: it did not repeat; sent again, ${answered.join(", ")}`]
    .filter(Boolean)
    .join("\n");
}

/**
 * A scenario that threw: its reason and the exchanges it failed on in `meta`, a 5xx or lost answer
 * sent again first. True when it fails; false when it is reported otherwise (flaky, or a `should`
 * warned unless --strict).
 */
async function failed(
  error: unknown,
  definition: ScenarioDefinition,
  run: RunContext,
  meta: ScenarioMeta,
): Promise<boolean> {
  meta.reason = (error as Error)?.message ?? String(error);
  // A failure after all: what was flaky before it is no more than evidence.
  delete meta.flaky;
  delete meta.curl;
  meta.failedOn = [];
  meta.evidence ??= [];
  const evidence = meta.evidence;
  // A check that names no answer is about the last one the scenario got itself.
  const own = [...evidence].reverse().find((e) => !e.cited);
  const failedOn = failureEvidence(error);
  if (failedOn.length === 0 && own) failedOn.push(own);
  meta.failedOn = failedOn.map((e) => indexIn(evidence, e));
  const curl = curlOfExchange(failedOn[0]?.seq, run.keySources);
  if (curl !== undefined) meta.curl = curl;
  const confirmed = await confirmFailure(failedOn, run.timeScale);
  if (confirmed) {
    const retriedOn = confirmed.again.map((e) => indexIn(evidence, e));
    const answered = confirmed.again.map((e) => `${e.method} ${e.path} → ${e.status ?? "no answer"}`);
    if (!confirmed.repeated) {
      meta.flaky = { retriedOn };
      meta.reason = `${meta.reason}\nflaky: it did not repeat; sent again, ${answered.join(", ")}`;
      return false;
    }
    meta.failedOn.push(...retriedOn);
    meta.reason = `${meta.reason}\nrepeated when sent again: ${answered.join(", ")}`;
  }
  if (definition.severity === "should" && !run.strict) {
    meta.warned = true;
    return false;
  }
  return true;
}

/** Where an exchange is in a result's evidence (by its number), added as cited when it is not there. */
export function indexIn(evidence: Evidence[], e: Evidence): number {
  const at = evidence.findIndex((x) => x === e || (e.seq !== undefined && x.seq === e.seq));
  if (at >= 0) return at;
  evidence.push({ ...e, cited: true });
  return evidence.length - 1;
}

/**
 * A step of a story that is no result of its own: what it sends is for the judge (a burst, a poll
 * whose states the rules follow). It runs when the run meets its needs and `results` (the ids it
 * feeds) are selected; a step that could not run leaves those results to skip with their reason.
 */
export function step(
  definition: { title: string; needs?: Need[]; results: string[] },
  body: (api: Pick<ScenarioApi, "run" | "http" | "place">) => Promise<void>,
): void {
  test(`step: ${definition.title}`, async () => {
    const run = inject("conformance");
    if (run.dryRun || unmetNeed(definition.needs ?? [], run)) return;
    if (run.only.length > 0 && !definition.results.some((id) => picomatch.isMatch(id, run.only))) return;
    const { projectId, regionId } = run.discovered;
    tell(run, { kind: "scenario", id: `step: ${definition.title}` });
    try {
      await body({
        run,
        http: runHttp(run, definition.results[0] ?? definition.title),
        place: () => ({ project_id: projectId ?? 0, region_id: regionId ?? 0 }),
      });
    } catch (error) {
      // No result of its own to fail: the results it feeds say it.
      stepUnfinished(
        definition.results,
        `${definition.title}: ${(error as Error)?.message ?? String(error)}`,
        failureEvidence(error),
      );
    }
  });
}

/** Tells the run's progress (when the run listens: the CLI) what a scenario or a driver does. */
export function tell(run: RunContext, activity: Activity): void {
  if (run.activity !== undefined) activityPoster(run.activity)(activity);
}
