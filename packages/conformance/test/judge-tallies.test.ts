// The judge's tallies (src/judge/tallies.ts), fed verdicts made up here: what each result keeps of
// what passed and what failed, within its bounds, and the verdict its tally gives.

import { describe, expect, it } from "vitest";
import { specModel } from "../src/facts/spec.js";
import { PROBLEM } from "../src/http/answer.js";
import { createTallies, SAMPLE, verdictOf } from "../src/judge/tallies.js";
import { RULES, resultIdOf } from "../src/rules/index.js";
import type { Evidence, Severity } from "../src/shared/context.js";

const ruleOf = (severity: Severity) => {
  const rule = RULES.find((r) => r.severity === severity && r.perOperation);
  const operation = specModel().operations.find((o) => rule?.applies(o));
  if (!rule || !operation) throw new Error(`no ${severity} rule per operation applies to an operation`);
  return { rule, operation };
};
const must = ruleOf("must");
const should = ruleOf("should");
const evidence = (seq: number): Evidence => ({
  method: "GET",
  path: `/${seq}`,
  status: 200,
  excerpt: "",
  seq,
});

function tallies(limits = { problems: 2, evidence: 3 }) {
  const firsts: [string, Severity, string][] = [];
  const t = createTallies({
    ...limits,
    redact: (text) => text.replaceAll("sesame", "[redacted]"),
    onFirstFailure: (...first) => firsts.push(first),
  });
  return { t, firsts };
}

describe("tallies", () => {
  it("a result that held shows the first few exchanges it judged", () => {
    const { t, firsts } = tallies();
    const { rule, operation } = must;
    for (let i = 0; i < SAMPLE + 2; i++)
      t.record(rule, operation.operationId, null, { evidence: evidence(i) });
    const tally = t.get(resultIdOf(rule, operation.operationId));
    expect(tally).toMatchObject({ judged: SAMPLE + 2, failing: 0, problems: [], failed: [] });
    expect(tally?.sample.map((e) => e.seq)).toEqual([...Array(SAMPLE).keys()]);
    expect(verdictOf(rule, operation, tally, false)).toEqual({
      status: "passed",
      reason: null,
      evidence: tally?.sample,
    });
    expect(firsts).toEqual([]);
  });

  it("keeps `problems` problems and `evidence` exchanges, says how many more, and tells the first failure once", () => {
    const { t, firsts } = tallies();
    const { rule, operation } = must;
    const id = resultIdOf(rule, operation.operationId);
    t.record(rule, operation.operationId, null, { evidence: evidence(0) });
    for (let i = 1; i <= 4; i++)
      t.record(rule, operation.operationId, `open sesame ${i}`, { evidence: evidence(i), by: "a-driver" });
    const tally = t.get(id);
    expect(tally?.problems).toEqual([
      "open [redacted] 1 (called by a-driver)",
      "open [redacted] 2 (called by a-driver)",
    ]);
    expect(tally?.failed.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(firsts).toEqual([[id, "must", "open [redacted] 1 (called by a-driver)"]]);
    expect(verdictOf(rule, operation, tally, false)).toEqual({
      status: "failed",
      reason:
        "4 of 5 exchanges break it:\nopen [redacted] 1 (called by a-driver)\nopen [redacted] 2 (called by a-driver)\n… and 2 more",
      evidence: tally?.failed,
      failedOn: [0, 1, 2],
    });
  });

  it("a problem is redacted whole, then cut", () => {
    const { t } = tallies();
    const { rule, operation } = must;
    t.record(rule, operation.operationId, `${"x".repeat(PROBLEM)} sesame`, { evidence: evidence(1) });
    const [said] = t.get(resultIdOf(rule, operation.operationId))?.problems ?? [];
    expect(said?.startsWith("x".repeat(PROBLEM))).toBe(true);
    expect(said).toContain(`${PROBLEM + " [redacted]".length} characters in all`);
  });

  it("a should rule warns, unless strict; a rule that judged nothing is skipped", () => {
    const { t } = tallies();
    const { rule, operation } = should;
    t.record(rule, operation.operationId, "too long", { evidence: evidence(1) });
    const tally = t.get(resultIdOf(rule, operation.operationId));
    expect(verdictOf(rule, operation, tally, false).status).toBe("warned");
    expect(verdictOf(rule, operation, tally, true).status).toBe("failed");
    expect(verdictOf(rule, operation, undefined, true)).toMatchObject({ status: "skipped", evidence: [] });
  });
});
