// One conformance run: start or name the target, discover what to use, run the scenario files
// through vitest's Node API with our reporter, write report.json, junit.xml and report.md, and
// print a one-screen summary. Exit code 0: conformant; 1: a `must` scenario failed (or a `should`
// one under --strict); 2: the run could not be made as asked.

// The suite's own names are never redacted as if they were a key (src/active/vocabulary.ts registers them).
import "./vocabulary.js";
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import picomatch from "picomatch";
import { createVitest } from "vitest/node";
import { buildReport } from "../judge/build-report.js";
import { checkReportDir, reportDirOf, saveReports, verdictCode } from "../report/files.js";
import { activityListener, createTimeline, hooksOf } from "../report/progress.js";
import { createScenarioReporter } from "../report/reporter.js";
import { type RunIo, type RunOutput, type RunResult, withRunOutput } from "../report/run-output.js";
import type { Activity } from "../shared/activity.js";
import type { ConformanceOptions } from "../shared/conformance-options.js";
import { scenarioModuleCache } from "../shared/module-cache.js";
import type { Report } from "../shared/results.js";
import { colors as pc } from "../shared/terminal.js";
import { UsageError } from "../shared/usage-error.js";
import { checkOnly, checkOptions } from "../target/check-options.js";
import { prepareRun } from "../target/prepare.js";
import { resultIds } from "./scenario-ids.js";

const packageRoot = fileURLToPath(new URL("../..", import.meta.url));

export function runConformance(options: ConformanceOptions, io: RunIo = {}): Promise<RunResult> {
  return withRunOutput(options, io, (output) => run(options, io, output));
}

async function run(
  options: ConformanceOptions,
  io: RunIo,
  { env, write, redactLine, targetKeys, progress, notice }: RunOutput,
): Promise<RunResult> {
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
    checkOptions(options);
    checkOnly(options.only, resultIds(), {
      name: "scenario or result id (--dry-run lists them all)",
      examples: `"auth.*", "pagination.page.*", "pagination.offset.*.listRegions"`,
    });
    // A dry run writes no report.
    if (!options.dryRun) checkReportDir(reportDir);
    progress?.doing("discovery");
    prepared = await prepareRun(options, env, notice, hooksOf(tell));
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
    if (!options.dryRun) {
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
    const reporter = createScenarioReporter(write, redact, {
      dryRun: options.dryRun,
      ...(progress ? { progress } : {}),
    });
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
    const scenarios = reporter.results();
    if (reporter.problems().length > 0 || scenarios.length === 0) {
      for (const problem of reporter.problems()) write(pc.red(problem));
      write(
        pc.red(
          scenarios.length === 0
            ? "platform-api-conformance: no scenario ran (check --only)."
            : "platform-api-conformance: the suite itself failed.",
        ),
      );
      return { exitCode: 2 };
    }
    const report: Report = buildReport(
      {
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
        createdResources: reporter.created(),
      },
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

function printPlan(report: Report, write: (line: string) => void) {
  write(pc.bold(`Dry run: nothing is called. ${report.scenarios.length} scenarios against ${report.target}`));
  for (const s of report.scenarios) {
    const plan = s.plan === "run" ? pc.green("run") : pc.dim(`skip: ${s.reason}`);
    write(`${s.id} (${s.severity}) — ${plan}`);
    for (const call of s.calls ?? []) write(pc.dim(`    ${call}`));
  }
}
