// A report put together from results: the judge's for traffic, the active run's and the fuzz
// run's alike. Below the renderers (src/report/), which only write out what is built here.

import { hideCredentials } from "../facts/credential-names.js";
import type { CreatedResource } from "../shared/context.js";
import { redactDeep } from "../shared/redact.js";
import type { FuzzReport, Report, ScenarioResult, TrafficSummary } from "../shared/results.js";

export function summarize(scenarios: ScenarioResult[]): Report["summary"] {
  const summary = { passed: 0, failed: 0, warned: 0, skipped: 0, flaky: 0 };
  for (const s of scenarios) summary[s.status]++;
  return summary;
}

/**
 * The one place a report is put together, for an active run and for traffic alike: its summary
 * counted from its results, every string redacted.
 */
export function buildReport(
  run: {
    target: string;
    startedAt: Date;
    options: Record<string, unknown>;
    scenarios: ScenarioResult[];
    createdResources?: CreatedResource[];
    traffic?: TrafficSummary;
    fuzz?: FuzzReport;
  },
  redact: (text: string) => string,
): Report {
  const report: Report = {
    target: run.target,
    startedAt: run.startedAt.toISOString(),
    durationMs: Date.now() - run.startedAt.getTime(),
    options: run.options,
    summary: summarize(run.scenarios),
    scenarios: run.scenarios,
    createdResources: run.createdResources ?? [],
    ...(run.traffic ? { traffic: run.traffic } : {}),
    ...(run.fuzz ? { fuzz: run.fuzz } : {}),
  };
  // A credential known only by its name (a client's own header, query parameter or body field) is
  // hidden here too, for every producer's report.
  return redactDeep(report, (text) => hideCredentials(redact(text)));
}
