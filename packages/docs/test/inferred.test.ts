// Every field the description requires only by inference (x-inferred-required) says so in the
// reference; fields the platform's documentation states as required, and optional ones, do not.
import { loadBundle, loadModel, pointer, resolveRef } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { INFERRED_REQUIRED_NOTE } from "../src/inferred.js";
import type { Json } from "../src/operations.js";
import { referenceDocument } from "../src/reference.js";

const bundle = loadBundle();
const model = loadModel();
const { doc } = referenceDocument(bundle);
const description = (d: Json, at: string) => String(resolveRef<Json>(d, { $ref: at })?.description ?? "");
const field = (schema: string, name: string) => pointer("components", "schemas", schema, "properties", name);

describe("fields required by inference in the reference", () => {
  it("a task's error says it is required here by inference, after its own description", () => {
    const at = field("Task", "error");
    expect(model.inferredRequired[pointer("components", "schemas", "Task")]).toContain("error");
    const original = description(bundle, at);
    expect(original).not.toContain(INFERRED_REQUIRED_NOTE);
    expect(description(doc, at).startsWith(original.trimEnd())).toBe(true);
    expect(description(doc, at)).toContain(INFERRED_REQUIRED_NOTE);
  });

  it("every inferred field carries the note, once", () => {
    const fields = Object.entries(model.inferredRequired).flatMap(([schema, names]) =>
      names.map((name) => `${schema}/properties/${name}`),
    );
    expect(fields.length).toBeGreaterThan(0);
    for (const at of fields) expect(description(doc, at).split(INFERRED_REQUIRED_NOTE), at).toHaveLength(2);
  });

  it("a field the documentation states as required, or an optional one, has no note", () => {
    expect(description(doc, field("QuotaLimitRequest", "id"))).not.toContain(INFERRED_REQUIRED_NOTE);
    expect(description(doc, field("Task", "finished_on"))).not.toContain(INFERRED_REQUIRED_NOTE);
    expect(description(doc, field("AiTaskList", "count"))).not.toContain(INFERRED_REQUIRED_NOTE);
  });
});
