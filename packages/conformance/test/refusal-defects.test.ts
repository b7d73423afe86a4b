// Every rule that says a request must be refused, or answered one status, fails when the request
// is let in (2xx) as well as when it is refused otherwise; the defect catalogue plants an
// "accepts" defect for each, and teeth.test.ts catches each in the mode that can see it (the
// recording judged in-process for an answer-side defect, a live run for a changed request). The
// rules are read from the registry (`refuses`), the stories from their scenario files
// (`refuses: true`), never from a list typed here.

import { describe, expect, it } from "vitest";
import { refusalStoryIds, resultIds } from "../src/active/scenario-ids.js";
import { plannedResults } from "../src/judge/judge.js";
import { RULES } from "../src/rules/index.js";
import { defects } from "./defects.js";

const DEFECTS = defects();
const REFUSAL_RULES = RULES.filter((r) => r.refuses).map((r) => r.id);
const REFUSAL_STORIES = refusalStoryIds();

/** The results a refusal rule or story reports: a story is one, a per-operation rule one per operation. */
const resultsOf = (id: string) =>
  REFUSAL_STORIES.includes(id)
    ? [id]
    : plannedResults()
        .filter((p) => p.rule.id === id)
        .map((p) => p.id);

describe("the refusal rules", () => {
  it("every rule of the registry says whether it is one", () => {
    expect(RULES.filter((r) => typeof r.refuses !== "boolean").map((r) => r.id)).toEqual([]);
    expect(REFUSAL_RULES.length).toBeGreaterThan(0);
    expect(REFUSAL_STORIES.length).toBeGreaterThan(0);
    for (const id of REFUSAL_STORIES) expect(resultIds()).toContain(id);
  });

  it.each([...REFUSAL_RULES, ...REFUSAL_STORIES].map((id) => [id] as const))(
    "%s has an accepts defect in test/defects.ts that fails one of its results",
    (id) => {
      const accepting = DEFECTS.filter((d) => d.accepts?.includes(id));
      expect(
        accepting.map((d) => d.name),
        `no defect accepts what ${id} refuses`,
      ).not.toEqual([]);
      for (const defect of accepting)
        expect(
          defect.fails.filter((r) => resultsOf(id).includes(r)),
          defect.name,
        ).not.toEqual([]);
    },
  );

  it("a defect's accepts names only refusal rules and stories", () => {
    const known = new Set([...REFUSAL_RULES, ...REFUSAL_STORIES]);
    expect(DEFECTS.flatMap((d) => d.accepts ?? []).filter((id) => !known.has(id))).toEqual([]);
  });
});
