// The rule results of an active run (scenarios/95-rules.scenario.ts): one scenario per result the
// registry gives (`<rule id>.<operationId>`, or the rule's id), its verdict read from the run's
// judge, after every driver and story has made its exchanges. What a driver could not finish is
// said in the results of the rules it feeds.

// The suite's own names are never redacted as if they were a key (src/active/vocabulary.ts registers them).
import "./vocabulary.js";
import type { OperationModel } from "@platform-api/spec";
import { operationNeeds } from "../facts/operations.js";
import { plannedResults, verdictOf } from "../judge/judge.js";
import type { Rule } from "../rules/types.js";
import type { Evidence } from "../shared/context.js";
import { Deviation } from "./check.js";
import { DRIVERS } from "./drivers/index.js";
import {
  flakyDrivesOf,
  runJudge,
  stepUnfinishedOf,
  unfinishedEvidenceOf,
  unfinishedOf,
} from "./run-judge.js";
import { scenario } from "./scenario.js";

const feeding = (rule: Rule) => DRIVERS.filter((d) => d.feeds.some((prefix) => rule.id.startsWith(prefix)));

/** What the run sends for a result: its drivers' calls, and every other exchange of the run. */
function callsFor(rule: Rule, operation: OperationModel): string[] {
  const driven = feeding(rule)
    .filter((d) => d.applies(operation))
    .flatMap((d) => d.calls(operation));
  return [...driven, `(judged: ${rule.judges})`];
}

export function ruleResultScenarios(): void {
  for (const { id, rule, operation } of plannedResults())
    scenario(
      {
        id,
        title: rule.title(operation),
        severity: rule.severity,
        operation: operation.operationId,
        ...(rule.perOperation ? { check: rule.id } : {}),
        needs: rule.needs ? rule.needs(operation) : operationNeeds(operation),
        calls: callsFor(rule, operation),
      },
      async (api) => {
        const verdict = verdictOf(rule, operation, runJudge(api.run).tally(id), true);
        api.show(...verdict.evidence);
        const unfinished = [
          ...feeding(rule).flatMap((d) =>
            unfinishedOf(d.id, operation.operationId).map((p) => `the ${d.id} driver could not finish: ${p}`),
          ),
          ...stepUnfinishedOf(id).map((p) => `a step could not finish: ${p}`),
        ];
        const problems = [...(verdict.status === "failed" ? [verdict.reason ?? ""] : []), ...unfinished];
        // The exchanges it failed on: the judge's first (the reason's order), then what stopped a driver or step.
        const failedOn: Evidence[] = [
          ...(verdict.status === "failed" ? (verdict.failedOn ?? []).map((i) => verdict.evidence[i]) : []),
          ...feeding(rule).flatMap((d) => unfinishedEvidenceOf(d.id, operation.operationId)),
          ...unfinishedEvidenceOf("step", id),
        ].filter((e): e is Evidence => e !== undefined);
        if (problems.length > 0) throw new Deviation(problems.join("\n"), [], failedOn);
        for (const d of feeding(rule))
          for (const f of flakyDrivesOf(d.id, operation.operationId))
            api.flaky(`the ${d.id} driver stopped: ${f.problem}`, f.failed, f.again);
        if (verdict.status === "skipped") api.skip(verdict.reason ?? "nothing was judged");
      },
    );
}
