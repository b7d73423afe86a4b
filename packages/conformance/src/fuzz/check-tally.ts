// Fuzz's own checks (src/fuzz/checks.ts) tallied over a run: per result, how many requests it judged
// and how many broke it, the first problems and exchanges kept as its evidence, and the results
// they make once the run is over.

import type { Evidence } from "../shared/context.js";
import type { ScenarioResult } from "../shared/results.js";
import { FUZZ_CHECKS, type FuzzCheck, fuzzResultId } from "./checks.js";

/** Problems a result keeps in its reason; the rest are counted. */
const PROBLEM_LIMIT = 10;
/** Exchanges a failing result keeps as its evidence. */
const EVIDENCE_LIMIT = 20;
/** Exchanges a passing result keeps, to show what it judged. */
const SAMPLE_LIMIT = 5;

interface CheckTally {
  judged: number;
  failing: number;
  problems: string[];
  failed: Evidence[];
  sample: Evidence[];
}

export interface CheckTallies {
  /** One judgement of a result: `problem` null when the request held to its check. */
  tally(id: string, problem: string | null, evidence: Evidence | undefined): void;
  /** The checks' results on the operations called; `unjudged` counts the pairs no request reached. */
  results(strict: boolean, operations: string[]): { own: ScenarioResult[]; unjudged: number };
}

/** `redact` is applied to each problem kept: the run's judge's, which knows every token it saw. */
export function createCheckTallies(redact: (text: string) => string): CheckTallies {
  const tallies = new Map<string, CheckTally>();
  return {
    tally(id, problem, evidence) {
      let t = tallies.get(id);
      if (!t) {
        t = { judged: 0, failing: 0, problems: [], failed: [], sample: [] };
        tallies.set(id, t);
      }
      t.judged++;
      if (problem === null) {
        if (evidence && t.sample.length < SAMPLE_LIMIT) t.sample.push(evidence);
        return;
      }
      t.failing++;
      if (t.problems.length < PROBLEM_LIMIT) t.problems.push(redact(problem));
      if (evidence && t.failed.length < EVIDENCE_LIMIT) t.failed.push(evidence);
    },
    results(strict, operations) {
      const own: ScenarioResult[] = [];
      let unjudged = 0;
      for (const check of FUZZ_CHECKS)
        for (const operationId of operations) {
          const id = fuzzResultId(check, operationId);
          const t = tallies.get(id);
          if (!t) {
            unjudged++;
            continue;
          }
          own.push(resultOf(check, operationId, t, strict));
        }
      return { own, unjudged };
    },
  };
}

function resultOf(check: FuzzCheck, operationId: string, t: CheckTally, strict: boolean): ScenarioResult {
  const common = {
    id: fuzzResultId(check, operationId),
    title: `${operationId}: ${check.judges}`,
    severity: check.severity,
    operation: operationId,
    check: check.id,
    durationMs: 0,
  };
  if (t.failing === 0) return { ...common, status: "passed", reason: null, evidence: t.sample };
  const more = t.failing > t.problems.length ? `\n… and ${t.failing - t.problems.length} more` : "";
  return {
    ...common,
    status: check.severity === "must" || strict ? "failed" : "warned",
    reason: `${t.failing} of ${t.judged} requests break it:\n${t.problems.join("\n")}${more}`,
    evidence: t.failed,
  };
}
