import { describe, expect, it } from "vitest";
import { findOperation } from "../lib/index.js";
import { loadBundle, loadModel, type Schema, schemaAt, schemaOf } from "./bundle.js";
import { type FieldFacts, operations, type SchemaFacts } from "./seed-table.js";

const doc = loadBundle(undefined, { seed: true });
const model = loadModel(undefined, { seed: true });
const NO_OFFSET_PATTERN = String.raw`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$`;

function typeName(schema: Schema): string {
  if (schema.type === undefined) return "any";
  const types = Array.isArray(schema.type) ? [...schema.type] : [schema.type];
  return types.sort((a, b) => (a === "null" ? 1 : b === "null" ? -1 : a.localeCompare(b))).join("|");
}

/** Differences between one schema node and the seed's facts about it, as readable lines. */
function compareField(raw: unknown, facts: FieldFacts, at: string, out: string[]): void {
  const schema = schemaOf(doc, raw);
  if (!schema) {
    out.push(`${at}: missing`);
    return;
  }
  const expectedType = facts.type
    .split("|")
    .sort((a, b) => (a === "null" ? 1 : b === "null" ? -1 : a.localeCompare(b)))
    .join("|");
  if (typeName(schema) !== expectedType)
    out.push(`${at}: type ${typeName(schema)}, seed says ${expectedType}`);
  if (schema.format !== facts.format) out.push(`${at}: format ${schema.format}, seed says ${facts.format}`);
  if (facts.noOffset && schema.pattern !== NO_OFFSET_PATTERN)
    out.push(`${at}: not modelled as a date-time without offset`);
  if (!facts.noOffset && schema.pattern !== undefined)
    out.push(`${at}: has a pattern the seed does not state`);
  const actualEnum = schema.enum ? [...schema.enum].sort() : undefined;
  const expectedEnum = facts.enum ? [...facts.enum].sort() : undefined;
  if (JSON.stringify(actualEnum) !== JSON.stringify(expectedEnum)) {
    out.push(`${at}: enum ${JSON.stringify(actualEnum)}, seed says ${JSON.stringify(expectedEnum)}`);
  }
  for (const keyword of ["minimum", "maximum", "default"] as const) {
    if (JSON.stringify(schema[keyword]) !== JSON.stringify(facts[keyword])) {
      out.push(
        `${at}: ${keyword} ${JSON.stringify(schema[keyword])}, seed says ${JSON.stringify(facts[keyword])}`,
      );
    }
  }
  if (Boolean(schema.deprecated) !== Boolean(facts.deprecated)) out.push(`${at}: deprecated mismatch`);
  if (facts.items) compareField(schema.items, facts.items, `${at}[]`, out);
  if (facts.object) compareObject(schema, facts.object, at, out);
}

function compareObject(schema: Schema, facts: SchemaFacts, at: string, out: string[]): void {
  const properties = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  for (const [name, field] of Object.entries(facts.fields)) {
    if (!(name in properties)) {
      out.push(`${at}.${name}: missing`);
      continue;
    }
    compareField(properties[name], field, `${at}.${name}`, out);
    if (required.has(name) !== Boolean(field.required)) {
      out.push(`${at}.${name}: required is ${required.has(name)}, seed says ${Boolean(field.required)}`);
    }
  }
  for (const name of Object.keys(properties)) {
    if (!(name in facts.fields)) out.push(`${at}.${name}: not in the seed`);
  }
  for (const name of required) {
    if (!(name in facts.fields)) out.push(`${at}: requires ${name}, which the seed does not list`);
  }
  // What the seed states is told apart from what the description infers (x-inferred-required).
  const marked = schema["x-inferred-required"];
  const inferred = new Set<string>(Array.isArray(marked) ? marked.map(String) : []);
  for (const [name, field] of Object.entries(facts.fields)) {
    if (inferred.has(name) !== Boolean(field.inferred)) {
      out.push(
        `${at}.${name}: ${inferred.has(name) ? "marked" : "not marked"} x-inferred-required, seed ${field.inferred ? "lists it without saying it is always present" : "states whether it is required"}`,
      );
    }
  }
  for (const name of inferred) {
    if (!(name in facts.fields)) out.push(`${at}: marks ${name} inferred, which the seed does not list`);
  }
  if ((schema.additionalProperties === false) !== Boolean(facts.closed)) {
    out.push(
      `${at}: additionalProperties ${JSON.stringify(schema.additionalProperties)}, seed says ${facts.closed ? "closed" : "open"}`,
    );
  }
}

function compareBody(schemaPointer: string | undefined, facts: SchemaFacts, at: string): string[] {
  const out: string[] = [];
  const schema = schemaPointer ? schemaAt(doc, schemaPointer) : undefined;
  if (!schema) return [`${at}: no schema`];
  if (typeName(schema) !== "object") out.push(`${at}: type ${typeName(schema)}, expected object`);
  compareObject(schema, facts, at, out);
  return out;
}

const jsonSchema = (content: readonly { contentType: string; schemaPointer?: string }[] | undefined) =>
  content?.find((m) => m.contentType === "application/json")?.schemaPointer;

describe("the bundled description matches the seed's table", () => {
  const bundled = model.operations.map((o) => o.key);

  it("has exactly the seed's operations, no more and no fewer", () => {
    expect([...bundled].sort()).toEqual(Object.keys(operations).sort());
    expect(bundled).toHaveLength(Object.keys(operations).length);
  });

  for (const [key, facts] of Object.entries(operations)) {
    describe(key, () => {
      const operation = findOperation(model, facts.method, facts.path);
      const op = () => {
        if (!operation) throw new Error(`${key} is not in the description`);
        return operation;
      };

      it("uses the seed's security scheme", () => {
        expect(op().security).toEqual([facts.security]);
      });

      it("has every parameter with the seed's type, bounds and default, and no other", () => {
        const params = new Map(op().parameters.map((p) => [p.name, p]));
        const out: string[] = [];
        for (const [name, pf] of Object.entries(facts.parameters)) {
          const param = params.get(name);
          if (!param) {
            out.push(`parameter ${name}: missing`);
            continue;
          }
          if (param.in !== pf.in) out.push(`parameter ${name}: in ${param.in}, seed says ${pf.in}`);
          if (param.required !== Boolean(pf.required)) out.push(`parameter ${name}: required mismatch`);
          const { in: _in, required: _required, ...schemaFacts } = pf;
          compareField({ $ref: param.schemaPointer }, schemaFacts, `parameter ${name}`, out);
        }
        for (const name of params.keys())
          if (!(name in facts.parameters)) out.push(`parameter ${name}: not in the seed`);
        expect(out).toEqual([]);
      });

      it("has the seed's request body", () => {
        const body = op().requestBody;
        if (!facts.body) {
          expect(body).toBeUndefined();
          return;
        }
        expect(body?.required).toBe(true);
        expect(compareBody(jsonSchema(body?.content), facts.body, "body")).toEqual([]);
      });

      it("has the seed's success responses", () => {
        const success = op().responses.filter((r) => r.status.startsWith("2"));
        expect(success.map((r) => r.status).sort()).toEqual(Object.keys(facts.success).sort());
        for (const [code, body] of Object.entries(facts.success)) {
          const content = success.find((r) => r.status === code)?.content;
          if (body === "none") {
            expect(content).toEqual([]);
          } else if (body === "unspecified") {
            const schemaPointer = jsonSchema(content);
            const schema = schemaPointer ? schemaAt(doc, schemaPointer) : undefined;
            expect(schema?.["x-unspecified"]).toEqual(
              expect.arrayContaining([expect.stringMatching(/shape/)]),
            );
            expect(schema?.type).toBeUndefined();
          } else {
            expect(compareBody(jsonSchema(content), body, `response ${code}`)).toEqual([]);
          }
        }
      });

      it("documents exactly the error statuses that apply to it", () => {
        const errors = op()
          .responses.filter((r) => !r.status.startsWith("2"))
          .map((r) => Number(r.status));
        expect(errors.sort()).toEqual([...facts.errors].sort());
      });
    });
  }
});

describe("the table's own checks can fail", () => {
  it("reports a field with another type, a missing field, an extra field and an invented bound", () => {
    const out: string[] = [];
    compareObject(
      { type: "object", properties: { a: { type: "string" }, c: { type: "integer", maximum: 5 } } },
      { fields: { a: { type: "integer" }, b: { type: "string" }, c: { type: "integer" } } },
      "fixture",
      out,
    );
    expect(out).toEqual([
      "fixture.a: type string, seed says integer",
      "fixture.b: missing",
      "fixture.c: maximum 5, seed says undefined",
    ]);
  });

  it("reports an inference left unmarked and a stated requirement marked as inferred", () => {
    const out: string[] = [];
    compareObject(
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "string" } },
        required: ["a", "b"],
        "x-inferred-required": ["b"],
      },
      {
        fields: {
          a: { type: "string", required: true, inferred: true },
          b: { type: "string", required: true },
        },
      },
      "fixture",
      out,
    );
    expect(out).toEqual([
      "fixture.a: not marked x-inferred-required, seed lists it without saying it is always present",
      "fixture.b: marked x-inferred-required, seed states whether it is required",
    ]);
  });
});
