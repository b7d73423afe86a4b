// The vitest reporter of a conformance run: a live line per scenario as it ends, and the results
// collected for report.json. Scenario tests carry their id, severity and evidence in their meta.

import type { Reporter, TestCase } from "vitest/node";
import type { CreatedResource, ScenarioMeta } from "../shared/context.js";
import type { ScenarioResult, ScenarioStatus } from "../shared/results.js";
import { colors as pc } from "../shared/terminal.js";
import type { Progress } from "./progress.js";

export interface ScenarioReporter extends Reporter {
  results(): ScenarioResult[];
  /** Errors outside any scenario (a scenario file that does not load). */
  problems(): string[];
  /** Every resource a scenario created, those of stories run only for a selected rule included. */
  created(): CreatedResource[];
}

const MARK: Record<ScenarioStatus, string> = {
  passed: pc.green("✓"),
  failed: pc.red("✗"),
  warned: pc.yellow("!"),
  skipped: pc.dim("-"),
  flaky: pc.yellow("~"),
};

export function createScenarioReporter(
  write: (line: string) => void,
  redact: (text: string) => string,
  options: { dryRun?: boolean; progress?: Pick<Progress, "done"> } = {},
): ScenarioReporter {
  const results: ScenarioResult[] = [];
  const problems: string[] = [];
  const created: CreatedResource[] = [];

  const toResult = (testCase: TestCase): ScenarioResult | undefined => {
    const meta = testCase.meta() as ScenarioMeta;
    if (!meta.scenario || meta.unselected) return undefined;
    const result = testCase.result();
    let status: ScenarioStatus;
    let reason = meta.reason ?? null;
    if (result.state === "failed") {
      status = "failed";
      reason = meta.reason ?? result.errors.map((e) => e.message).join("; ");
    } else if (result.state === "skipped") status = "skipped";
    else if (meta.flaky) status = "flaky";
    else if (meta.warned) status = "warned";
    else status = "passed";
    return {
      id: meta.scenario.id,
      title: meta.scenario.title,
      severity: meta.scenario.severity,
      status,
      operation: meta.scenario.operation,
      ...(meta.scenario.check === undefined ? {} : { check: meta.scenario.check }),
      reason: reason === null ? null : redact(reason),
      evidence: (meta.evidence ?? []).map((e) => ({
        ...e,
        path: redact(e.path),
        excerpt: redact(e.excerpt),
      })),
      ...(status !== "passed" && status !== "skipped" && meta.failedOn?.length
        ? { failedOn: meta.failedOn }
        : {}),
      ...(status === "flaky" && meta.flaky ? { flaky: meta.flaky } : {}),
      ...(status !== "passed" && status !== "skipped" && meta.curl ? { curl: redact(meta.curl) } : {}),
      durationMs: Math.round((testCase.diagnostic()?.duration ?? 0) + (meta.tookMs ?? 0)),
      ...(meta.created?.length ? { created: meta.created } : {}),
      ...(options.dryRun ? { calls: meta.scenario.calls, plan: meta.plan } : {}),
    };
  };

  return {
    onTestCaseResult(testCase: TestCase) {
      created.push(...((testCase.meta() as ScenarioMeta).created ?? []));
      const result = toResult(testCase);
      if (!result) return;
      results.push(result);
      options.progress?.done(results.length);
      if (options.dryRun) return;
      const note = result.status === "passed" ? pc.dim(`${result.durationMs} ms`) : (result.reason ?? "");
      const line = `${MARK[result.status]} ${pc.dim(`[${String(results.length).padStart(3)}]`)} ${result.id} ${pc.dim(
        `(${result.severity})`,
      )} ${note.length > 140 ? `${note.slice(0, 140)}…` : note}`;
      write(line);
    },
    onTestRunEnd(modules, unhandledErrors) {
      for (const module of modules) {
        for (const error of module.errors()) problems.push(`${module.moduleId}: ${redact(error.message)}`);
      }
      for (const error of unhandledErrors) problems.push(redact(String((error as Error).message ?? error)));
    },
    results: () => results,
    problems: () => problems,
    created: () => created,
  };
}
