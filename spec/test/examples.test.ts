import { describe, expect, it } from "vitest";
import { createSpecValidator, type OperationModel, pointer } from "../lib/index.js";
import { isObject, type Json, loadBundle, loadModel, objectAt, operationNode, schemaOf } from "./bundle.js";

const doc = loadBundle();
const model = loadModel();
const { validateSchema: validate } = createSpecValidator(doc, model);

interface ExampleCase {
  where: string;
  schemaPointer: string;
  value: unknown;
}

/** The raw media objects of a request body or response node, by content type. */
function mediaOf(raw: unknown): Record<string, Json> {
  const content = schemaOf(doc, raw)?.content;
  return Object.fromEntries(
    Object.entries(isObject(content) ? content : {}).filter(([, m]) => isObject(m)),
  ) as Record<string, Json>;
}

/** The examples of one operation: parameters, request body and responses, each with its schema. */
function examplesOf(op: OperationModel): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const node = operationNode(doc, op);
  const fromMedia = (media: Json | undefined, schemaPointer: string | undefined, where: string) => {
    if (!media || !schemaPointer) return;
    if ("example" in media) cases.push({ where: `${where} example`, schemaPointer, value: media.example });
    for (const [name, ex] of Object.entries(isObject(media.examples) ? media.examples : {}))
      cases.push({ where: `${where} example "${name}"`, schemaPointer, value: schemaOf(doc, ex)?.value });
  };
  for (const p of op.parameters)
    if (p.example !== undefined)
      cases.push({
        where: `${op.key} parameter ${p.name}`,
        schemaPointer: p.schemaPointer,
        value: p.example,
      });
  const body = mediaOf(node.requestBody);
  for (const m of op.requestBody?.content ?? [])
    fromMedia(body[m.contentType], m.schemaPointer, `${op.key} request`);
  const responses = isObject(node.responses) ? node.responses : {};
  for (const r of op.responses) {
    const media = mediaOf(responses[r.status]);
    for (const m of r.content) fromMedia(media[m.contentType], m.schemaPointer, `${op.key} ${r.status}`);
  }
  return cases;
}

/** Every example of the description with the schema it must satisfy. */
function collectExamples(): ExampleCase[] {
  const cases = model.operations.flatMap(examplesOf);
  for (const [name, schema] of Object.entries(objectAt(doc, "components", "schemas"))) {
    const examples = isObject(schema) && Array.isArray(schema.examples) ? schema.examples : [];
    for (const [i, value] of examples.entries()) {
      cases.push({
        where: `schema ${name} examples[${i}]`,
        schemaPointer: pointer("components", "schemas", name),
        value,
      });
    }
  }
  return cases;
}

const cases = collectExamples();

describe("every example validates against its schema (JSON Schema 2020-12)", () => {
  it("finds examples for every operation's responses and request body", () => {
    for (const op of model.operations) {
      for (const r of op.responses.filter((r) => r.content.length > 0 || !r.status.startsWith("2"))) {
        expect(
          cases.some((c) => c.where.startsWith(`${op.key} ${r.status} example`)),
          `${op.key} ${r.status}`,
        ).toBe(true);
      }
      if (op.requestBody) {
        expect(
          cases.some((c) => c.where.startsWith(`${op.key} request example`)),
          `${op.key} request`,
        ).toBe(true);
      }
    }
  });

  it.each(cases.map((c) => [c.where, c] as const))("%s", (_where, c) => {
    expect(validate(c.schemaPointer, c.value)).toEqual([]);
  });

  it("rejects an example that breaks its schema (the validator has teeth)", () => {
    const regions = pointer("components", "schemas", "RegionList");
    expect(validate(regions, { count: -1, results: [] })).not.toEqual([]);
    expect(validate(pointer("components", "schemas", "Task"), { id: "x" })).not.toEqual([]);
    const task = {
      id: "5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11",
      task_type: "create_volume",
      state: "FINISHED",
      error: null,
      created_on: "2026-11-21T14:05:02+00:00",
      created_resources: null,
      user_id: 7,
    };
    expect(validate(pointer("components", "schemas", "Task"), task)).toEqual([
      '/created_on must match pattern "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?$"',
    ]);
    const limits = pointer("components", "schemas", "GlobalLimits");
    expect(validate(limits, { project_count_limit: 3, unknown_limit: 1 })).toEqual([
      "/ must NOT have additional properties",
    ]);
  });
});
