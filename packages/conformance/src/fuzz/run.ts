// `conformance fuzz`: requests generated from the spec (coverage, fuzz, stateful), judged by the
// one judge and fuzz's checks, reported as a run is (src/report/formats.ts) with a reproducer per
// finding; `--replay report.json` sends a report's findings again. Exit code 0: conformant (no
// `must` result failed that the baseline does not accept); 1: not (or, replaying, a finding still
// fails); 2: usage.

import { randomInt } from "node:crypto";
import fc from "fast-check";
import { checkOnly, checkOptions } from "../discovery/check-options.js";
import { prepareRun } from "../discovery/prepare.js";
import { MAX_ANSWER_BYTES } from "../http/http.js";
import { buildReport } from "../judge/build-report.js";
import { checkReportDir, reportDirOf, saveReports, verdictCode } from "../report/files.js";
import { createTimeline, hooksOf } from "../report/progress.js";
import type { RunIo, RunResult } from "../report/run-output.js";
import { type RunOutput, withRunOutput } from "../report/run-output.js";
import type { ActivityHooks } from "../shared/activity.js";
import type { ConformanceOptions } from "../shared/conformance-options.js";
import type { RunContext } from "../shared/context.js";
import type { Phase } from "../shared/finding.js";
import { exitCodeOf } from "../shared/interrupt.js";
import type { Report, ScenarioResult } from "../shared/results.js";
import { colors as pc } from "../shared/terminal.js";
import { UsageError } from "../shared/usage-error.js";
import { readBaseline, writeBaseline } from "./baseline.js";
import { checkFuzzOptions, type FuzzOptions } from "./options.js";
import { coveragePhase, fuzzPhase, type PhaseContext, statefulPhase } from "./phases.js";
import { planOperations } from "./plan.js";
import { type Replayed, replay } from "./replay.js";
import { readReplayFile } from "./replay-file.js";
import type { Restored } from "./restore.js";
import { createSession, type Finding, type Session } from "./session.js";
import { FuzzStopped } from "./stopped.js";

/** A seeded supply of UUIDs: the same seed gives the same ones, in the same order. */
function uuids(seed: number): () => string {
  const supply = fc.sample(fc.uuid({ version: 4 }), { seed, numRuns: 256 });
  let next = 0;
  return () => supply[next++ % supply.length] as string;
}

export function runFuzz(options: FuzzOptions, io: RunIo = {}): Promise<RunResult> {
  return withRunOutput(options, io, (output) => fuzzRun(options, io, output));
}

async function fuzzRun(options: FuzzOptions, io: RunIo, output: RunOutput): Promise<RunResult> {
  const { write, redactLine, targetKeys, progress } = output;
  const startedAt = new Date();
  // What discovery and fuzz's requests send and wait for: the progress, and report.json's time.
  const timeline = createTimeline();
  const activity = hooksOf((a) => {
    timeline.heard(a);
    progress?.heard(a);
  });
  const reportDir = reportDirOf(options.report, io.cwd);
  let ready: Ready;
  try {
    ready = await getReady(options, output, activity, reportDir);
  } catch (error) {
    if (error instanceof UsageError) {
      write(pc.red(`conformance fuzz: ${error.message}`));
      return { exitCode: 2 };
    }
    throw error;
  }
  const { prepared, replaying, known } = ready;
  const { context: run } = prepared;
  const redact = targetKeys([run.target.apiKey, run.target.resellerApiKey]);
  try {
    const seed = options.seed ?? randomInt(2 ** 31 - 1);
    const session = createSession(run, {
      seed,
      ...(io.signal ? { signal: io.signal } : {}),
      said: (line) => write(pc.yellow(line)),
      activity,
    });
    const sent = await sendRequests(options, run, session, seed, replaying, output);
    const { results, unjudged } = session.results(options.strict, sent.operations);
    const findings = reportedFindings(session.findings(), results, replaying, known, options.baselineUpdate);
    const scenarios = results.map((r) =>
      withFinding(
        r,
        findings.find((f) => f.id === r.id),
        options.baseline,
      ),
    );
    sayUnjudged(session, unjudged, write);
    const report = buildReport(
      fuzzReportInput(options, run, startedAt, scenarios, session, { ...sent, findings, seed, replaying }),
      (text) => session.judge.redact(redact(text)),
    );
    report.time = timeline.account(startedAt.getTime(), report.durationMs);
    sayFindings(session, findings, write);
    if (options.baselineUpdate && options.baseline !== undefined) {
      writeBaseline(options.baseline, findings);
      write(pc.dim(`baseline: wrote ${count(findings.length, "finding")} to ${options.baseline}`));
    }
    if (!saveReports(report, reportDir, redactLine, write)) return { exitCode: 2, report };
    return { exitCode: exitCodeOfFuzz(options, report, sent), report, reportDir };
  } catch (error) {
    if (error instanceof UsageError) {
      write(pc.red(`conformance fuzz: ${error.message}`));
      return { exitCode: 2 };
    }
    throw error;
  } finally {
    await prepared.close();
  }
}

/** A fuzz run ready to send: its target discovered, the files it reads read. */
interface Ready {
  prepared: Awaited<ReturnType<typeof prepareRun>>;
  /** The findings of --replay's report, when replaying. */
  replaying: Finding[] | undefined;
  /** The ids of the findings --baseline accepts. */
  known: Set<string>;
}

/** Every check before anything is sent (UsageError: exit 2), then discovery. */
async function getReady(
  options: FuzzOptions,
  { env, notice, progress }: RunOutput,
  activity: ActivityHooks,
  reportDir: string,
): Promise<Ready> {
  checkOptions(options);
  checkFuzzOptions(options);
  // Before anything is sent: an --only that names nothing would otherwise be said after discovery.
  checkOnly(options.only);
  const replaying = options.replay === undefined ? undefined : readReplayFile(options.replay);
  const known =
    options.baseline === undefined
      ? new Set<string>()
      : new Set(readBaseline(options.baseline, options.baselineUpdate).findings.map((f) => f.id));
  checkReportDir(reportDir);
  progress?.doing("discovery");
  const prepared = await prepareRun(
    { ...(options as ConformanceOptions), dryRun: false },
    env,
    notice,
    activity,
  );
  return { prepared, replaying, known };
}

/** What the requests came to: the operations called, a replay's outcomes, an early stop, the put-backs. */
interface SentRequests {
  operations: string[];
  replayed: Replayed | undefined;
  stopped: FuzzStopped | undefined;
  restored: Restored[];
}

/** Says what is fuzzed, then sends the phases' requests or a replay's, and puts back what PUTs replaced. */
async function sendRequests(
  options: FuzzOptions,
  run: RunContext,
  session: Session,
  seed: number,
  replaying: Finding[] | undefined,
  { write, progress }: RunOutput,
): Promise<SentRequests> {
  write(
    pc.bold(
      `${replaying ? `Replaying findings of ${options.replay} against` : "Fuzzing"} ${run.target.label}`,
    ),
  );
  write(
    pc.dim(
      `project ${run.discovered.projectId ?? "none"}, region ${run.discovered.regionId ?? "none"}; writes ${run.allowWrites ? "on" : "off"}, ${run.rateLimit} requests/s${replaying ? "" : `; seed ${seed}, phases ${options.phases.join(",")}, at most ${options.maxExamples} examples per operation`}`,
    ),
  );
  const uuid = uuids(seed);
  const planned = planOperations(run, { only: options.only, uuid });
  const operations = planned.filter((p) => p.base).map((p) => p.operation.operationId);
  // A replay sends its findings' requests only: what the phases would leave out is no news.
  if (!replaying)
    for (const p of planned.filter((x) => x.skip))
      write(pc.dim(`skipped ${p.operation.operationId}: ${p.skip}`));
  const replayed: Replayed | undefined = replaying ? [] : undefined;
  let stopped: FuzzStopped | undefined;
  let restored: Restored[] = [];
  try {
    progress?.doing(replaying ? "replay" : "fuzz");
    if (replaying && replayed) await replay(replaying, run, session, uuid, write, replayed);
    else
      await runPhases(
        options,
        {
          run,
          session,
          planned,
          seed,
          maxExamples: options.maxExamples,
          uuid,
          said: (l) => write(pc.dim(l)),
        },
        write,
        progress,
      );
  } catch (error) {
    if (!(error instanceof FuzzStopped)) throw error;
    stopped = error;
    write(pc.yellow(`stopped: ${error.message}; the report covers what was sent`));
  } finally {
    // Also after an interrupt or a crash: what a PUT replaced is written back as it was read.
    restored = await session.putBack();
    for (const r of restored)
      write(
        r.outcome === "put back" || r.outcome === "not changed"
          ? pc.dim(`${r.outcome}: ${r.operationId} ${r.path}`)
          : pc.red(`${r.operationId} ${r.path}: ${r.outcome}`),
      );
  }
  return { operations, replayed, stopped, restored };
}

/** The phases asked for, in order; a stop is thrown (FuzzStopped), then the findings are confirmed. */
async function runPhases(
  options: FuzzOptions,
  ctx: PhaseContext,
  write: (line: string) => void,
  progress: RunOutput["progress"],
): Promise<void> {
  for (const phase of options.phases) {
    if (phase === "stateful" && !ctx.run.allowWrites) {
      write(pc.dim("stateful: skipped (it creates resources: pass --allow-writes)"));
      continue;
    }
    progress?.doing(`fuzz: ${phase} phase`);
    await PHASE_RUNS[phase](ctx);
    // fast-check takes a throw for a failing example: a stop it swallowed is raised here.
    const stop = ctx.session.stopped();
    if (stop) throw stop;
  }
  // Before anything is reported: a finding whose request passes when sent again is flaky.
  await ctx.session.confirm();
}

/**
 * The findings of the results that failed or warned (one left out, as Prism keeps no state, is
 * none). Replayed, a finding keeps the phase and seed that found it; written to the baseline, every
 * finding of this run is accepted by it.
 */
function reportedFindings(
  all: Finding[],
  results: ScenarioResult[],
  replaying: Finding[] | undefined,
  known: Set<string>,
  baselineUpdate: boolean,
): Finding[] {
  const reported = new Set(
    results.filter((r) => r.status === "failed" || r.status === "warned").map((r) => r.id),
  );
  return all
    .filter((f) => reported.has(f.id))
    .map((f) => {
      const original = replaying?.find((r) => r.id === f.id);
      return original ? { ...f, phase: original.phase, seed: original.seed } : f;
    })
    .map((f) => (known.has(f.id) || baselineUpdate ? { ...f, known: true } : f));
}

/** What the run could not judge, said so that a verdict over it is not taken for a pass. */
function sayUnjudged(session: Session, unjudged: number, write: (line: string) => void): void {
  // A body never read judged nothing.
  if (session.cutAnswers() > 0)
    write(
      pc.yellow(
        `${count(session.cutAnswers(), "answer")} larger than ${MAX_ANSWER_BYTES.toLocaleString("en-US")} bytes: cut, their bodies not judged (see the evidence in report.md)`,
      ),
    );
  if (unjudged > 0)
    write(pc.dim(`${unjudged} results of the registry had nothing to judge in this traffic (left out)`));
}

/** The report's input: the run's options and what was sent, with fuzz's own section. */
function fuzzReportInput(
  options: FuzzOptions,
  run: RunContext,
  startedAt: Date,
  scenarios: ScenarioResult[],
  session: Session,
  sent: SentRequests & { findings: Finding[]; seed: number; replaying: Finding[] | undefined },
): Parameters<typeof buildReport>[0] {
  const { findings, replayed, stopped, restored } = sent;
  return {
    target: run.target.label,
    startedAt,
    options: {
      command: "fuzz",
      target: options.target,
      allowWrites: options.allowWrites,
      only: options.only,
      rateLimit: options.rateLimit,
      projectId: run.discovered.projectId,
      regionId: run.discovered.regionId,
      strict: options.strict,
      failOnFlaky: options.failOnFlaky ?? false,
      timeScale: run.timeScale,
    },
    scenarios,
    createdResources: session.created(),
    fuzz: {
      seed: sent.replaying?.[0]?.seed ?? sent.seed,
      phases: options.phases,
      maxExamples: options.maxExamples,
      requests: session.requests(),
      findings,
      ...(options.baseline === undefined
        ? {}
        : { baseline: { file: options.baseline, known: findings.filter((f) => f.known).length } }),
      ...(replayed ? { replay: replayed } : {}),
      ...(stopped ? { stopped: stopped.message } : {}),
      ...(session.cutAnswers() > 0 ? { cutAnswers: session.cutAnswers() } : {}),
      ...(restored.length > 0 ? { restored } : {}),
    },
  };
}

/** The requests and findings counted, then each finding the baseline does not accept with its curl. */
function sayFindings(session: Session, findings: Finding[], write: (line: string) => void): void {
  const accepted = findings.filter((f) => f.known).length;
  write(
    pc.dim(
      `${count(session.requests(), "request")}, ${count(findings.length, "finding")}${accepted > 0 ? ` (${accepted} accepted by the baseline)` : ""}`,
    ),
  );
  for (const f of findings.filter((x) => !x.known))
    write(
      flakyTries(f) !== undefined
        ? `${pc.yellow("flaky")} ${f.id} (${f.phase}): ${flakyTries(f)}: ${f.problem.split("\n")[0]}\n  tried: ${f.curl}`
        : `${f.severity === "must" ? pc.red("finding") : pc.yellow("finding")} ${f.id} (${f.phase}): ${f.problem.split("\n")[0]}\n  reproduce: ${f.curl}`,
    );
}

/** 128 + the signal when interrupted; a replay: 1 while a `must` finding still fails; else the verdict. */
function exitCodeOfFuzz(options: FuzzOptions, report: Report, sent: SentRequests): RunResult["exitCode"] {
  if (sent.stopped?.interrupted) return exitCodeOf(sent.stopped.interrupted);
  if (sent.replayed) return sent.replayed.some((r) => r.stillFails && r.severity === "must") ? 1 : 0;
  return options.baselineUpdate ? 0 : verdictCode(report);
}

/** "1 request", "2 requests". */
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

const PHASE_RUNS: Record<Phase, (ctx: PhaseContext) => Promise<void>> = {
  coverage: coveragePhase,
  fuzz: fuzzPhase,
  stateful: statefulPhase,
};

/** "failed 1 of 3 tries" for a finding that did not fail every try; undefined for one that did. */
const flakyTries = (finding: Finding) =>
  finding.tries && finding.tries.failed < finding.tries.of
    ? `failed ${finding.tries.failed} of ${finding.tries.of} tries`
    : undefined;

/**
 * A result with its finding's reproducer in its reason; one the baseline accepts is a warning, not
 * a failure; one whose finding did not fail every try is flaky, never the reproducer of a defect.
 */
function withFinding(
  result: ScenarioResult,
  finding: Finding | undefined,
  baseline: string | undefined,
): ScenarioResult {
  if (!finding || (result.status !== "failed" && result.status !== "warned")) return result;
  const flaky = flakyTries(finding);
  if (flaky !== undefined && !finding.known)
    return {
      ...result,
      status: "flaky",
      reason: `flaky: its request ${flaky} (sent again before it was reported): ${result.reason ?? ""}\nrequest tried (phase ${finding.phase}, seed ${finding.seed}): ${finding.curl}`,
    };
  const reproducer = `\nsmallest request (phase ${finding.phase}, seed ${finding.seed}): ${finding.curl}`;
  if (finding.known)
    return {
      ...result,
      status: "warned",
      reason: `known (accepted in ${baseline}): ${result.reason ?? ""}${reproducer}`,
    };
  return { ...result, reason: `${result.reason ?? ""}${reproducer}` };
}
