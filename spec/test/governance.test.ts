import { describe, expect, it } from "vitest";
import { loadBundle, operationsOf } from "./bundle.js";
import { type LintReport, redoclyJson } from "./redocly.js";

const PRODUCTS = ["cloud", "iam", "streaming", "security", "storage"] as const;

describe("governance", () => {
  it("redocly lint reports 0 errors and 0 warnings on the description", () => {
    const report = redoclyJson<LintReport>(["lint", "all"]);
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("each project rule reports its violation in the fixture, at the right place", () => {
    const report = redoclyJson<LintReport>(["lint", "test/fixtures/governance-violations.yaml"]);
    const found = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(found).toEqual(
      expect.arrayContaining([
        "rule/operation-common-error-responses #/paths/~1things~1{id}/put/responses",
        "rule/operation-common-error-responses #/paths/~1things/get/responses",
        "rule/operation-product #/paths/~1things~1{id}/put/x-product",
        "rule/operation-documented #/paths/~1things~1{id}~1audit/get",
        "rule/schema-property-description #/paths/~1things~1{id}/put/requestBody/content/application~1json/schema/properties/name/description",
        "platform/error-responses-for-input #/paths/~1things~1{id}/put/responses",
        "platform/list-parameter-bounds #/paths/~1things/get/parameters/0/schema",
        "platform/pagination-extension #/paths/~1things/get",
        "platform/unspecified-shape #/paths/~1things~1{id}/put/x-unspecified",
      ]),
    );
    // The audit operation lacks only its description and tags: one finding, no other project rule.
    const audit = report.problems.filter((p) =>
      p.location[0]?.pointer.startsWith("#/paths/~1things~1{id}~1audit"),
    );
    expect(
      audit.map((p) => p.ruleId).filter((id) => id.startsWith("rule/") || id.startsWith("platform/")),
    ).toEqual(["rule/operation-documented"]);
    // 400 (body) and 404 (path parameter) are two separate findings of one rule.
    expect(report.problems.filter((p) => p.ruleId === "platform/error-responses-for-input")).toHaveLength(2);
    // limit lacks both bounds; offset has its minimum and is not reported.
    const bounds = report.problems.filter((p) => p.ruleId === "platform/list-parameter-bounds");
    expect(bounds.map((p) => p.message)).toEqual([
      expect.stringContaining("`limit` has no `minimum`"),
      expect.stringContaining("`limit` has no `maximum`"),
    ]);
  });

  it("redocly score on the bundle is at least 80", () => {
    const score = redoclyJson<{ agentReadiness: number }>(["score", "dist/openapi.json"]);
    expect(score.agentReadiness).toBeGreaterThanOrEqual(80);
  });
});

describe("per-product bundles", () => {
  const whole = loadBundle();
  for (const product of PRODUCTS) {
    it(`dist/${product}.json holds exactly the ${product} operations`, () => {
      const bundle = loadBundle(product);
      const ids = [...operationsOf(bundle)].map((o) => o.operation.operationId).sort();
      const expected = [...operationsOf(whole)]
        .filter((o) => o.operation["x-product"] === product)
        .map((o) => o.operation.operationId)
        .sort();
      expect(expected.length).toBeGreaterThan(0);
      expect(ids).toEqual(expected);
      // Only the product's own tags and tag groups remain.
      const used = new Set([...operationsOf(bundle)].flatMap((o) => o.operation.tags));
      expect(bundle.tags.map((t: { name: string }) => t.name).sort()).toEqual([...used].sort());
      const grouped = bundle["x-tagGroups"].flatMap((g: { tags: string[] }) => g.tags);
      expect(grouped.sort()).toEqual([...used].sort());
    });
  }
});
