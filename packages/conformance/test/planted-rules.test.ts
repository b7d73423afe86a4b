// Every rule of the registry has a planted defect in test/defects.ts: one whose `fails` holds a
// result of the rule, which teeth.test.ts then catches (in-process or live). A rule added without
// one fails here, by name.

import { describe, expect, it } from "vitest";
import { plannedResults } from "../src/judge/judge.js";
import { RULES } from "../src/rules/index.js";
import { defects } from "./defects.js";

const FAILED = new Set(defects().flatMap((d) => d.fails));
const resultsOf = (ruleId: string) => plannedResults().filter((r) => r.rule.id === ruleId);

describe("planted defects", () => {
  // A rule that plans no result (no operation of the spec it applies to) has nothing to catch.
  it.each(RULES.filter((r) => resultsOf(r.id).length > 0).map((r) => [r.id] as const))(
    "%s has a planted defect",
    (ruleId) => {
      const results = resultsOf(ruleId).map((r) => r.id);
      expect(
        results.filter((id) => FAILED.has(id)),
        `no defect of test/defects.ts fails a result of ${ruleId} (${results.join(", ")})`,
      ).not.toEqual([]);
    },
  );

  it("most rules plan results: the list above is not vacuous", () => {
    expect(RULES.filter((r) => resultsOf(r.id).length > 0).length).toBeGreaterThan(20);
  });
});
