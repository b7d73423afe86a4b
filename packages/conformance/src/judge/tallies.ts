// Each result's tally: every exchange its rule judged, what failed, and what shows it; and the
// verdict a tally gives. A result fails on the first problem, but keeps counting: the report says
// how many exchanges broke it, and quotes the first few.

import type { OperationModel } from "@platform-api/spec";
import { PROBLEM } from "../http/answer.js";
import { cutText } from "../http/shown-headers.js";
import { resultIdOf } from "../rules/index.js";
import type { Rule } from "../rules/types.js";
import type { Evidence, Severity } from "../shared/context.js";
import type { ScenarioResult } from "../shared/results.js";

/** Exchanges a passing result shows: a few are enough to see what was judged. */
export const SAMPLE = 5;

/** One result's tally: every exchange its rule judged, what failed, and what shows it. */
export interface Tally {
  rule: Rule;
  operations: Set<string>;
  judged: number;
  failing: number;
  problems: string[];
  failed: Evidence[];
  sample: Evidence[];
}

export interface Tallies {
  /**
   * A rule's verdict on an exchange of an operation: `problem` null when it held. `by` is the
   * result or driver that made the exchange, named in the problem.
   */
  record(
    rule: Rule,
    operationId: string,
    problem: string | null,
    exchange: { evidence: Evidence; by?: string },
  ): void;
  /** The tally of one result id, undefined when its rule judged nothing yet. */
  get(id: string): Tally | undefined;
}

export function createTallies(options: {
  /** Problems quoted and failing exchanges kept as evidence per result (LIMITS.problems, LIMITS.evidence). */
  problems: number;
  evidence: number;
  /** What every problem is redacted with before it is kept. */
  redact(text: string): string;
  /** Told the first time each result fails (redacted): the live line of `observe`. */
  onFirstFailure?(id: string, severity: Severity, problem: string): void;
}): Tallies {
  const tallies = new Map<string, Tally>();
  return {
    get: (id) => tallies.get(id),
    record(rule, operationId, problem, { evidence, by }) {
      const id = resultIdOf(rule, operationId);
      let t = tallies.get(id);
      if (!t) {
        t = { rule, operations: new Set(), judged: 0, failing: 0, problems: [], failed: [], sample: [] };
        tallies.set(id, t);
      }
      t.operations.add(operationId);
      t.judged++;
      if (problem === null) {
        if (t.sample.length < SAMPLE) t.sample.push(evidence);
        return;
      }
      t.failing++;
      const caller = by === undefined ? "" : ` (called by ${by})`;
      // Redacted whole, then cut: a rule's sentence quotes the URL, which may be megabytes long.
      const said = cutText(options.redact(`${problem}${caller}`), PROBLEM);
      if (t.failing === 1) options.onFirstFailure?.(id, rule.severity, said);
      if (t.problems.length < options.problems) t.problems.push(said);
      if (t.failed.length < options.evidence) t.failed.push(evidence);
    },
  };
}

/** A result's status, reason and evidence from its tally (none: nothing was judged). */
export function verdictOf(
  rule: Rule,
  operation: OperationModel,
  t: Tally | undefined,
  strict: boolean,
): Pick<ScenarioResult, "status" | "reason" | "evidence" | "failedOn"> {
  if (!t)
    return {
      status: "skipped",
      reason: rule.unjudged?.(operation) ?? "not seen in the traffic",
      evidence: [],
    };
  if (t.failing === 0) return { status: "passed", reason: null, evidence: t.sample };
  const more = t.failing > t.problems.length ? `\n… and ${t.failing - t.problems.length} more` : "";
  return {
    status: rule.severity === "must" || strict ? "failed" : "warned",
    reason: `${t.failing} of ${t.judged} exchanges break it:\n${t.problems.join("\n")}${more}`,
    evidence: t.failed,
    // Its evidence is what broke it, each exchange named in the reason in the same order.
    failedOn: t.failed.map((_, i) => i),
  };
}
