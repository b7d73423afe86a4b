// What the platform's documentation states (must) apart from what the description infers
// (should): the schemas name their fields required by inference in `x-inferred-required`, the
// model reads them, the one Ajv set-up validates either way, and the client's generated types make
// those fields optional.
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import { MODEL } from "../lib/generated/model.js";
import type { AsDescribed, components, inferredRequired } from "../lib/generated/openapi.js";
import { RUNTIME_MODEL } from "../lib/generated/runtime-model.js";
import {
  createSpecAjv,
  createSpecValidator,
  inferredRequiredAt,
  noteInferredRequired,
  operationById,
  pointer,
  readInferredRequired,
  specRef,
  withoutInferredRequired,
} from "../lib/index.js";
import { INFERRED_TYPES_NOTE } from "../scripts/generate.mjs";
import { type Json, loadBundle, loadModel, objectAt, schemaAt } from "./bundle.js";

const doc = loadBundle(undefined, { seed: true });
const model = loadModel(undefined, { seed: true });
const TASK = pointer("components", "schemas", "Task");
const AI_TASK_LIST = pointer("components", "schemas", "AiTaskList");

/** A task as the seed shows it, every listed field present. */
const task = {
  id: "6f5e1a2c-6b1f-4f34-9d7a-0c1b2a3d4e5f",
  task_type: "create_volume",
  state: "RUNNING",
  error: null,
  created_on: "2026-11-21T14:03:58",
  created_resources: null,
};

describe("x-inferred-required in the description", () => {
  // seed-table.test.ts holds each schema's marker to the seed, field by field.
  it("never names a field its schema does not require (each is an inference, not an invention)", () => {
    for (const [at, names] of Object.entries(model.inferredRequired)) {
      const schema = schemaAt(doc, at);
      for (const name of names) expect(schema?.required, `${at} ${name}`).toContain(name);
    }
  });

  it("leaves the AI task list's count optional with the seed's default of 0", () => {
    const list = schemaAt(doc, AI_TASK_LIST);
    expect(list?.required).not.toContain("count");
    expect(schemaAt(doc, `${AI_TASK_LIST}/properties/count`)?.default).toBe(0);
  });

  it("leaves out fields the seed states as required (a Required column saying yes)", () => {
    const quotaRequest = pointer("components", "schemas", "QuotaLimitRequest");
    const profile = pointer("components", "schemas", "ProtectionProfile");
    expect(schemaAt(doc, quotaRequest)?.required?.length).toBeGreaterThan(0);
    expect(inferredRequiredAt(model, quotaRequest)).toEqual([]);
    expect(inferredRequiredAt(model, profile)).toEqual([]);
  });
});

describe("the model", () => {
  it("keys each schema's inferred fields by its pointer, as the description lists them", () => {
    expect(inferredRequiredAt(model, TASK)).toEqual(
      objectAt(doc, "components", "schemas", "Task")["x-inferred-required"],
    );
    expect(model.inferredRequired).toEqual(readInferredRequired(doc));
  });

  it("is generated with them (MODEL), while the runtime view leaves them out", () => {
    expect(MODEL.inferredRequired).toEqual(loadModel().inferredRequired);
    expect(RUNTIME_MODEL).not.toHaveProperty("inferredRequired");
  });
});

describe("withoutInferredRequired and noteInferredRequired", () => {
  it("take exactly the inferred names out of `required` and leave the original alone", () => {
    const relaxed = withoutInferredRequired(doc);
    for (const [at, names] of Object.entries(model.inferredRequired)) {
      const before = schemaAt(doc, at)?.required ?? [];
      const after = schemaAt(relaxed, at)?.required ?? [];
      expect(after, at).toEqual(before.filter((n) => !names.includes(n)));
    }
    expect(schemaAt(doc, TASK)?.required).toContain("id");
    // A schema with nothing left to require has no `required` at all.
    expect(schemaAt(relaxed, TASK)).not.toHaveProperty("required");
  });

  it("end each inferred field's description with the note, and no other field's", () => {
    const noted = noteInferredRequired(doc, "NOTE.");
    const description = (d: Json, field: string) =>
      String(schemaAt(d, `${TASK}/properties/${field}`)?.description ?? "");
    expect(description(noted, "error")).toBe(`${description(doc, "error")}\n\nNOTE.`);
    expect(description(noted, "finished_on")).toBe(description(doc, "finished_on"));
    expect(schemaAt(noted, TASK)?.required).toEqual(schemaAt(doc, TASK)?.required);
  });
});

describe("createSpecAjv and createSpecValidator: inferred required or optional", () => {
  /** A 200 of the list with this body: by default listAiTasks, whose list has inferred-required links. */
  const answer = (body: unknown, operationId = "listAiTasks") => ({
    method: "GET",
    path: operationById(model, operationId).path,
    status: 200,
    contentType: "application/json",
    body,
  });
  const compile = (inferred?: "required" | "optional") =>
    createSpecAjv(doc, inferred ? { inferred } : {}).compile({ $ref: specRef(TASK) });
  const { error: _error, created_resources: _created, ...withoutInferred } = task;
  const { id: _id, ...withoutId } = task;

  it("by default requires the inferred fields, as the description writes them", () => {
    expect(compile()(task)).toBe(true);
    expect(compile()(withoutInferred)).toBe(false);
    expect(compile("required")(withoutInferred)).toBe(false);
  });

  it("with inferred: optional, accepts a body without them and still checks the rest", () => {
    const validate = compile("optional");
    expect(validate(withoutInferred)).toBe(true);
    expect(validate(withoutId)).toBe(true);
    expect(validate({ ...task, state: "DONE" })).toBe(false);
    expect(validate({ ...task, error: 1 })).toBe(false);
  });

  it("refuses an unknown mode, saying what is allowed", () => {
    expect(() => createSpecAjv(doc, { inferred: "maybe" as "optional" })).toThrow(
      'inferred must be "required" or "optional", got "maybe".',
    );
  });

  it("a body missing an inferred field fails as described and passes as documented", () => {
    const page = { count: 0, next: null, previous: null, results: [] };
    const { next: _next, previous: _previous, ...withoutLinks } = page;
    const described = createSpecValidator(doc);
    const documented = createSpecValidator(doc, model, { inferred: "optional" });
    expect(described.validateResponse(answer(page))).toEqual([]);
    expect(documented.validateResponse(answer(page))).toEqual([]);
    expect(described.validateResponse(answer(withoutLinks))).toEqual([
      "/ must have required property 'next'",
      "/ must have required property 'previous'",
    ]);
    expect(documented.validateResponse(answer(withoutLinks))).toEqual([]);
    // count is not required either way: the seed gives it a default of 0.
    const { count: _count, ...withoutCount } = page;
    expect(described.validateResponse(answer(withoutCount))).toEqual([]);
  });

  it("validators sharing one Ajv keep their descriptions and inferences apart", () => {
    const withoutLinks = { count: 0, results: [] };
    const ajv = createSpecAjv(undefined);
    const documented = createSpecValidator(doc, model, { inferred: "optional", ajv });
    const described = createSpecValidator(doc, model, { ajv });
    expect(described.validateResponse(answer(withoutLinks))).toEqual([
      "/ must have required property 'next'",
      "/ must have required property 'previous'",
    ]);
    expect(documented.validateResponse(answer(withoutLinks))).toEqual([]);
    expect(documented.validateSchema(TASK, withoutInferred)).toEqual([]);
    expect(described.validateSchema(TASK, withoutInferred)).not.toEqual([]);
  });

  it("a body missing a field the seed states as required fails both ways", () => {
    const quotaLimitRequests = (body: unknown) => answer(body, "listQuotaLimitRequests");
    for (const inferred of ["required", "optional"] as const) {
      const { validateResponse } = createSpecValidator(doc, model, { inferred });
      expect(validateResponse(quotaLimitRequests({ count: 0, results: [] })), inferred).toEqual([]);
      expect(validateResponse(quotaLimitRequests({ results: [] })), inferred).toEqual([
        "/ must have required property 'count'",
      ]);
    }
  });
});

describe("the generated types", () => {
  it("make every inferred field optional in `components`, with the note in its JSDoc", () => {
    // Compiles only while the inferred fields are optional and the stated ones required (a task's
    // id, task_type, state and user_id are stated by the platform's published description, merged
    // into the bundle; the seed only infers the first three).
    const bare: components["schemas"]["Task"] = {
      id: "t",
      task_type: "create_volume",
      state: "NEW",
      user_id: 7,
    };
    expect(Object.keys(bare)).toHaveLength(4);
    expectTypeOf<components["schemas"]["Task"]["user_id"]>().toEqualTypeOf<number>();
    expectTypeOf<components["schemas"]["Task"]["error"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<components["schemas"]["AiTaskList"]["count"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<components["schemas"]["QuotaLimitRequestList"]["count"]>().toEqualTypeOf<number>();
    expectTypeOf<components["schemas"]["ProtectionProfile"]["id"]>().toEqualTypeOf<number>();
    // The committed file, which generated-fresh.test.ts proves is what generateTypes("openapi")
    // makes now: generating it again here cost this file most of its CPU (openapi-typescript
    // brings in the TypeScript compiler).
    const source = readFileSync(new URL("../src/generated/openapi.ts", import.meta.url), "utf8");
    expect(source).toContain(INFERRED_TYPES_NOTE);
    expect(source).toMatch(/\n\s+error\?: string \| null;/);
  });

  it("list the inferred fields per schema and give the described shape (AsDescribed)", () => {
    expectTypeOf<inferredRequired["Task"]>().toEqualTypeOf<"error" | "created_on" | "created_resources">();
    expectTypeOf<AsDescribed<"Task">["id"]>().toEqualTypeOf<string>();
    expectTypeOf<AsDescribed<"Task">["error"]>().toEqualTypeOf<string | null>();
    expectTypeOf<AsDescribed<"Task">["finished_on"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<AsDescribed<"QuotaLimitRequest">>().toEqualTypeOf<
      components["schemas"]["QuotaLimitRequest"]
    >();
    // Each marker is on a component schema, the only place `inferredRequired` can name it.
    for (const at of Object.keys(model.inferredRequired))
      expect(at).toMatch(/^#\/components\/schemas\/[A-Za-z]\w*$/);
  });
});
