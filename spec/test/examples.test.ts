import { describe, expect, it } from "vitest";
import { createSpecValidator, pointer } from "../lib/index.js";
import { deref, loadBundle, type Node, operationsOf } from "./bundle.js";

const doc = loadBundle();
const { validateSchema: validate } = createSpecValidator(doc);

interface ExampleCase {
  where: string;
  schemaPointer: string;
  value: unknown;
}

/** Every example of the description with the schema it must satisfy. */
function collectExamples(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  const fromMedia = (media: Node, at: string[], where: string) => {
    const schemaPointer = pointer(...at, "schema");
    if ("example" in media) cases.push({ where: `${where} example`, schemaPointer, value: media.example });
    for (const [name, ex] of Object.entries<Node>(media.examples ?? {})) {
      const example = deref(doc, ex) as Node;
      cases.push({ where: `${where} example "${name}"`, schemaPointer, value: example.value });
    }
  };
  for (const { method, path, pathItem, operation } of operationsOf(doc)) {
    const op = `${method.toUpperCase()} ${path}`;
    const params = [
      ...(pathItem.parameters ?? []).map((p: Node, i: number) => ({
        p,
        at: ["paths", path, "parameters", String(i)],
      })),
    ];
    params.push(
      ...(operation.parameters ?? []).map((p: Node, i: number) => ({
        p,
        at: ["paths", path, method, "parameters", String(i)],
      })),
    );
    for (const { p, at } of params) {
      const resolved = deref(doc, p) as Node;
      const base = p.$ref
        ? p.$ref
            .slice(2)
            .split("/")
            .map((s: string) => s.replace(/~1/g, "/"))
        : at;
      if ("example" in resolved) {
        cases.push({
          where: `${op} parameter ${resolved.name}`,
          schemaPointer: pointer(...base, "schema"),
          value: resolved.example,
        });
      }
    }
    const body = operation.requestBody && (deref(doc, operation.requestBody) as Node);
    for (const [type, media] of Object.entries<Node>(body?.content ?? {})) {
      const base = operation.requestBody.$ref
        ? [...operation.requestBody.$ref.slice(2).split("/"), "content", type]
        : ["paths", path, method, "requestBody", "content", type];
      fromMedia(media, base, `${op} request`);
    }
    for (const [code, raw] of Object.entries<Node>(operation.responses ?? {})) {
      const response = deref(doc, raw) as Node;
      for (const [type, media] of Object.entries<Node>(response.content ?? {})) {
        const base = raw.$ref
          ? [...raw.$ref.slice(2).split("/"), "content", type]
          : ["paths", path, method, "responses", code, "content", type];
        fromMedia(media, base, `${op} ${code}`);
      }
    }
  }
  for (const [name, schema] of Object.entries<Node>(doc.components?.schemas ?? {})) {
    for (const [i, value] of (schema.examples ?? []).entries()) {
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
  it("finds examples for every operation's success response and request body", () => {
    for (const { method, path, operation } of operationsOf(doc)) {
      const op = `${method.toUpperCase()} ${path}`;
      const successWithBody = Object.entries<Node>(operation.responses).filter(
        ([code, r]) => code.startsWith("2") && (deref(doc, r) as Node).content,
      );
      for (const [code] of successWithBody) {
        expect(
          cases.some((c) => c.where.startsWith(`${op} ${code} example`)),
          `${op} ${code}`,
        ).toBe(true);
      }
      if (operation.requestBody) {
        expect(
          cases.some((c) => c.where.startsWith(`${op} request example`)),
          `${op} request`,
        ).toBe(true);
      }
      for (const code of Object.keys(operation.responses).filter((c) => !c.startsWith("2"))) {
        expect(
          cases.some((c) => c.where.startsWith(`${op} ${code} example`)),
          `${op} ${code}`,
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
