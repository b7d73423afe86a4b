import { beforeAll, describe, expect, it } from "vitest";
import { PRODUCT_BUNDLES, productOperations } from "../lib/index.js";
import { arrayAt, isObject, loadBundle, loadModel } from "./bundle.js";
import { type LintReport, redoclyJson, redoclyJsonEach } from "./redocly.js";

const PRODUCTS = ["cloud", "iam", "streaming", "security", "storage"] as const;
const names = (list: unknown[], key: string) =>
  list.filter(isObject).flatMap((item) => {
    const value = item[key];
    return Array.isArray(value) ? value.map(String) : [String(value)];
  });

const FIXTURE = "test/fixtures/governance-violations.yaml";
// One redocly process of a second or more: bounded for a loaded machine.
const REDOCLY_TIMEOUT_MS = 120_000;

describe("governance", () => {
  // The description and the fixture in one redocly run (a Node process each would cost a second
  // more): one report per argument, in their order.
  let lint: { all: LintReport; fixture: LintReport };
  beforeAll(() => {
    const reports = redoclyJsonEach<LintReport>(["lint", "all", FIXTURE]);
    expect(reports).toHaveLength(2);
    const [all, fixture] = reports as [LintReport, LintReport];
    lint = { all, fixture };
  }, REDOCLY_TIMEOUT_MS);

  it("redocly lint reports 0 errors and 0 warnings on the description", () => {
    const report = lint.all;
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("each project rule reports its violation in the fixture, at the right place", () => {
    const report = lint.fixture;
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
        "platform/inferred-required #/paths/~1things/get/responses/200/content/application~1json/schema/x-inferred-required/0",
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

  // The hand-authored description's score: the merged bundle adds the platform's fields without
  // descriptions (their text is never copied), which the score counts against it (79.4 today).
  it(
    "redocly score on the seed's bundle is at least 80",
    () => {
      const score = redoclyJson<{ agentReadiness: number }>(["score", "dist/seed/openapi.json"]);
      expect(score.agentReadiness).toBeGreaterThanOrEqual(80);
    },
    REDOCLY_TIMEOUT_MS,
  );
});

describe("per-product bundles", () => {
  const whole = loadModel();

  it("are the seed's products, one bundle each", () => {
    expect([...PRODUCT_BUNDLES]).toEqual([...PRODUCTS]);
    expect([...whole.products].sort()).toEqual([...PRODUCTS].sort());
  });

  for (const product of PRODUCTS) {
    it(`dist/${product}.json holds exactly the ${product} operations`, () => {
      const bundle = loadBundle(product);
      const own = loadModel(product).operations;
      const expected = productOperations(whole, product)
        .map((o) => o.operationId)
        .sort();
      expect(expected.length).toBeGreaterThan(0);
      expect(own.map((o) => o.operationId).sort()).toEqual(expected);
      // Only the product's own tags and tag groups remain.
      const used = [...new Set(own.flatMap((o) => o.tags))].sort();
      expect(names(arrayAt(bundle, "tags"), "name").sort()).toEqual(used);
      expect(names(arrayAt(bundle, "x-tagGroups"), "tags").sort()).toEqual(used);
    });
  }
});
