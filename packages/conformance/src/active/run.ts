// One conformance run: start or name the target, discover what to use, run the scenario files
// through vitest's Node API with our reporter, write the report files (src/report/formats.ts),
// and print a one-screen summary. Exit code 0: conformant; 1: a `must` scenario failed (or a `should`
// one under --strict); 2: the run could not be made as asked.

// The suite's own names are never redacted as if they were a key (src/active/vocabulary.ts registers them).
import "./vocabulary.js";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import picomatch from "picomatch";
import { createVitest } from "vitest/node";
import { checkOnly, checkOptions } from "../discovery/check-options.js";
import { prepareRun } from "../discovery/prepare.js";
import { buildReport } from "../judge/build-report.js";
import { checkReportDir, reportDirOf, saveReports, verdictCode } from "../report/files.js";
import { activityListener, createTimeline, hooksOf } from "../report/progress.js";
import { createScenarioReporter, type ScenarioReporter } from "../report/reporter.js";
import type { RunResult } from "../report/run-output.js";
import { type RunIo, type RunOutput, withRunOutput } from "../report/run-output.js";
import type { Activity } from "../shared/activity.js";
import type { ConformanceOptions } from "../shared/conformance-options.js";
import type { CreatedResource, RunContext } from "../shared/context.js";
import { scenarioModuleCache } from "../shared/module-cache.js";
import type { Report, ScenarioResult } from "../shared/results.js";
import { colors as pc } from "../shared/terminal.js";
import { UsageError } from "../shared/usage-error.js";
import { resultIds } from "./scenario-ids.js";

const packageRoot = fileURLToPath(new URL("../..", import.meta.url));

export function runConformance(options: ConformanceOptions, io: RunIo = {}): Promise<RunResult> {
  return withRunOutput(options, io, (output) => run(options, io, output));
}

async function run(options: ConformanceOptions, io: RunIo, output: RunOutput): Promise<RunResult> {
  const { write, redactLine, targetKeys, progress } = output;
  const startedAt = new Date();
  // What the discovery and the scenarios send and wait for: the progress, and report.json's time.
  const timeline = createTimeline();
  const tell = (activity: Activity) => {
    timeline.heard(activity);
    progress?.heard(activity);
  };
  const reportDir = reportDirOf(options.report, io.cwd);
  let prepared: Awaited<ReturnType<typeof prepareRun>>;
  try {
    prepared = await getReady(options, output, reportDir, tell);
  } catch (error) {
    if (error instanceof UsageError) {
      write(pc.red(`platform-api-conformance: ${error.message}`));
      return { exitCode: 2 };
    }
    throw error;
  }
  const { context } = prepared;
  const redact = targetKeys([context.target.apiKey, context.target.resellerApiKey]);
  const activity = `platform-api-conformance-${randomUUID()}`;
  context.activity = activity;
  const listening = activityListener(activity, tell);
  const only = options.only ?? [];
  progress?.done(0, resultIds().filter((id) => only.length === 0 || picomatch.isMatch(id, only)).length);
  try {
    if (!options.dryRun) sayTarget(context, write);
    const reporter = createScenarioReporter(write, redact, {
      dryRun: options.dryRun,
      ...(progress ? { progress } : {}),
    });
    await runScenarios(context, reporter);
    const scenarios = reporter.results();
    if (reporter.problems().length > 0 || scenarios.length === 0) {
      sayNoResults(reporter.problems(), scenarios.length, write);
      return { exitCode: 2 };
    }
    const report = buildReport(
      runReportInput(options, context, startedAt, scenarios, reporter.created()),
      redact,
    );
    if (options.dryRun) {
      printPlan(report, write);
      return { exitCode: 0, report };
    }
    // The worker's last messages are delivered before the account is made.
    await new Promise((done) => setImmediate(done));
    report.time = timeline.account(startedAt.getTime(), report.durationMs);
    if (!saveReports(report, reportDir, redactLine, write)) return { exitCode: 2, report };
    return { exitCode: verdictCode(report), report, reportDir };
  } finally {
    listening.close();
    await prepared.close();
  }
}

/** Every check before anything is sent (UsageError: exit 2), then discovery. */
function getReady(
  options: ConformanceOptions,
  { env, notice, progress }: RunOutput,
  reportDir: string,
  tell: (activity: Activity) => void,
): ReturnType<typeof prepareRun> {
  checkOptions(options);
  checkOnly(options.only, resultIds(), {
    name: "scenario or result id (--dry-run lists them all)",
    examples: `"auth.*", "pagination.page.*", "pagination.offset.*.listRegions"`,
  });
  // A dry run writes no report.
  if (!options.dryRun) checkReportDir(reportDir);
  progress?.doing("discovery");
  return prepareRun(options, env, notice, hooksOf(tell));
}

/** The run's first lines: the target, and the place and settings discovery and the flags gave. */
function sayTarget(context: RunContext, write: (line: string) => void): void {
  write(pc.bold(`Conformance of ${context.target.label}`));
  write(
    pc.dim(
      `project ${context.discovered.projectId ?? "none (see discovery.default-project)"}, ` +
        `region ${context.discovered.regionId === undefined ? "none (see discovery.active-region)" : `${context.discovered.regionId} (${context.discovered.regionName})`}; ` +
        `writes ${context.allowWrites ? "on" : "off"}, burst ${context.allowBurst ? "on" : "off"}, ${context.rateLimit} requests/s` +
        `${context.strict ? ", strict" : ""}`,
    ),
  );
}

/** The scenario files, run by vitest's Node API with the run's context provided and our reporter. */
async function runScenarios(context: RunContext, reporter: ScenarioReporter): Promise<void> {
  const vitest = await createVitest(
    "test",
    {
      config: resolve(packageRoot, "vitest.scenarios.config.ts"),
      root: packageRoot,
      watch: false,
      reporters: [reporter],
      provide: { conformance: context },
      experimental: scenarioModuleCache(packageRoot),
    },
    { logLevel: "silent" },
  );
  try {
    await vitest.start();
  } finally {
    await vitest.close();
  }
}

/** A run that gave no results, or whose suite itself failed: what went wrong (exit 2). */
function sayNoResults(problems: string[], results: number, write: (line: string) => void): void {
  for (const problem of problems) write(pc.red(problem));
  write(
    pc.red(
      results === 0
        ? "platform-api-conformance: no scenario ran (check --only)."
        : "platform-api-conformance: the suite itself failed.",
    ),
  );
}

/** The report's input: the run's options as given and as discovered, and its results. */
function runReportInput(
  options: ConformanceOptions,
  context: RunContext,
  startedAt: Date,
  scenarios: ScenarioResult[],
  createdResources: CreatedResource[],
): Parameters<typeof buildReport>[0] {
  return {
    target: context.target.label,
    startedAt,
    options: {
      target: options.target,
      allowWrites: options.allowWrites,
      allowBurst: options.allowBurst,
      only: options.only,
      rateLimit: options.rateLimit,
      projectId: context.discovered.projectId,
      regionId: context.discovered.regionId,
      strict: options.strict,
      failOnFlaky: options.failOnFlaky ?? false,
      dryRun: options.dryRun,
      timeScale: context.timeScale,
    },
    scenarios,
    createdResources,
  };
}

function printPlan(report: Report, write: (line: string) => void) {
  write(pc.bold(`Dry run: nothing is called. ${report.scenarios.length} scenarios against ${report.target}`));
  for (const s of report.scenarios) {
    const plan = s.plan === "run" ? pc.green("run") : pc.dim(`skip: ${s.reason}`);
    write(`${s.id} (${s.severity}) — ${plan}`);
    for (const call of s.calls ?? []) write(pc.dim(`    ${call}`));
  }
}
