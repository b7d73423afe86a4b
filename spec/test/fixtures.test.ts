// The fixture registry (src/fixtures) fits the spec model: every operation has an entry, no entry
// names an operation the spec lacks, every path parameter has a source that can give its value.
// The check is what every consumer relies on, so it is held to a model it must refuse too.
import { describe, expect, it } from "vitest";
import {
  checkFixtures,
  FIXTURES,
  fixtureProblems,
  type OperationModel,
  type SpecModel,
} from "../lib/index.js";
import { loadModel } from "./bundle.js";

const model = loadModel();
const withOperation = (extra: OperationModel): SpecModel => ({
  ...model,
  operations: [...model.operations, extra],
});
// An operation with more than one path parameter, so every kind of wrong source is met.
const template = model.operations.find(
  (o) => o.parameters.filter((p) => p.in === "path").length > 1,
) as OperationModel;

describe("the fixture registry", () => {
  it("fits the spec: an entry per operation, a source per path parameter", () => {
    expect(fixtureProblems(model, FIXTURES)).toEqual([]);
    expect(() => checkFixtures(model, FIXTURES)).not.toThrow();
  });

  it("names an operation of the spec that has no entry", () => {
    const model2 = withOperation({ ...template, operationId: "getWidget", key: "GET /widgets/{widget_id}" });
    expect(fixtureProblems(model2, FIXTURES)).toContain(
      "getWidget (GET /widgets/{widget_id}) has no fixture entry.",
    );
    expect(() => checkFixtures(model2, FIXTURES)).toThrow(/getWidget/);
  });

  it("names an entry for an operation the spec lacks", () => {
    const fixtures = { ...FIXTURES, getWidget: { path: {} } };
    expect(fixtureProblems(model, fixtures)).toEqual([
      "The fixture entry getWidget names an operation the spec lacks.",
    ]);
  });

  it("names a path parameter without a source, one the spec lacks, and a source that cannot give a value", () => {
    const { operationId } = template;
    const names = template.parameters.filter((p) => p.in === "path").map((p) => p.name);
    const missing = fixtureProblems(model, {
      ...FIXTURES,
      [operationId]: { path: { widget_id: { from: { discovery: "projectId" }, world: "widgets" } } },
    });
    expect(missing).toContain(`${operationId}'s path parameter ${names[0]} has no fixture source.`);
    expect(missing).toContain(`${operationId}'s fixture names a path parameter widget_id the spec lacks.`);

    const notAList = model.operations.find((o) => o.method !== "get")?.operationId ?? "";
    const notACreate = model.operations.find((o) => !o.asyncTask?.createdResourcesKey)?.operationId ?? "";
    const from = (i: number) => (i % 2 === 0 ? { list: notAList, field: "id" } : { created: notACreate });
    const wrong = fixtureProblems(model, {
      ...FIXTURES,
      [operationId]: { path: Object.fromEntries(names.map((n, i) => [n, { from: from(i), world: "w" }])) },
    });
    expect(wrong).toContain(
      `${operationId}'s ${names[0]}: its source ${notAList} is not a list (a GET with x-pagination, or the fixture's items field).`,
    );
    if (names.length > 1)
      expect(wrong).toContain(
        `${operationId}'s ${names[1]}: its source ${notACreate} names no created resource (no x-async-task createdResourcesKey).`,
      );
  });
});
