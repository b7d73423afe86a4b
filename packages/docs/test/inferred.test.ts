// The fields the description requires only by inference (x-inferred-required) in the reference:
// each operation that shows one says so once, naming them; each such field carries a short mark and
// no sentence of its own; fields the platform states as required, and optional ones, carry nothing.
import { INFERRED_REQUIRED, loadBundle, pointer, resolvePointer } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { INFERRED_MARK, INFERRED_REQUIRED_HEADING } from "../src/inferred.js";
import { isObject, type Json, listOperations } from "../src/operations.js";
import { referenceDocument } from "../src/reference.js";

const bundle = loadBundle();
const { doc } = referenceDocument(bundle);
const operations = listOperations(doc);
const MARK = `class="inferred-mark"`;
const count = (text: string, part: string) => text.split(part).length - 1;
const description = (at: string) => {
  const node = resolvePointer<Json>(doc, at);
  return isObject(node) && typeof node.description === "string" ? node.description : "";
};

/** Every schema of the bundle with its x-inferred-required names and its required and optional ones. */
const schemas: { at: string; inferred: string[]; required: string[]; properties: string[] }[] = [];
(function walk(node: unknown, path: string[]) {
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) walk(child, [...path, String(i)]);
    return;
  }
  if (!isObject(node)) return;
  if (isObject(node.properties))
    schemas.push({
      at: pointer(...path),
      inferred: Array.isArray(node[INFERRED_REQUIRED]) ? node[INFERRED_REQUIRED].map(String) : [],
      required: Array.isArray(node.required) ? node.required.map(String) : [],
      properties: Object.keys(node.properties),
    });
  for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
})(bundle, []);

/** The nodes an operation (at its pointer) reaches through $refs, by pointer. */
function reachedSchemas(root: Json, at: string): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) visit(child, `${at}/${i}`);
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    found.add(at);
    if (typeof node.$ref === "string") visit(resolvePointer(bundle, node.$ref), node.$ref);
    for (const [key, child] of Object.entries(node))
      visit(child, `${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
  };
  visit(root, at);
  return found;
}

describe("fields required by inference in the reference", () => {
  const inferredSchemas = schemas.filter((s) => s.inferred.length > 0);

  it("the bundle has fields required only by inference", () => {
    expect(inferredSchemas.length).toBeGreaterThan(0);
  });

  it("each operation that shows one says so once, naming every one it shows", () => {
    let saying = 0;
    for (const op of operations) {
      const bundleOp = resolvePointer<Json>(bundle, op.pointer);
      if (!bundleOp) throw new Error(op.pointer);
      const reached = reachedSchemas(bundleOp, op.pointer);
      const own = String(op.node.description ?? "");
      const shown = inferredSchemas.filter((s) => reached.has(s.at));
      if (shown.length === 0) {
        expect(own, op.operationId).not.toContain(INFERRED_REQUIRED_HEADING);
        continue;
      }
      saying++;
      expect(count(own, INFERRED_REQUIRED_HEADING), op.operationId).toBe(1);
      const paragraph = own.slice(own.indexOf(INFERRED_REQUIRED_HEADING));
      for (const s of shown)
        for (const name of s.inferred)
          expect(paragraph, `${op.operationId} ${s.at} ${name}`).toMatch(
            new RegExp(`<code>([^<]*\\.)?${name}</code>`),
          );
    }
    expect(saying).toBeGreaterThan(0);
  });

  it("marks each inferred field once, and says no sentence on it", () => {
    for (const s of inferredSchemas)
      for (const name of s.inferred) {
        const at = `${s.at}/properties/${name}`;
        expect(count(description(at), MARK), at).toBe(1);
        expect(description(at), at).toContain(`>${INFERRED_MARK}</span>`);
        expect(description(at), at).not.toContain(INFERRED_REQUIRED_HEADING);
      }
  });

  it("marks no field the platform states as required, and no optional one", () => {
    const others = schemas.flatMap((s) =>
      s.properties.filter((name) => !s.inferred.includes(name)).map((name) => `${s.at}/properties/${name}`),
    );
    const statedRequired = schemas.flatMap((s) =>
      s.required.filter((name) => !s.inferred.includes(name)).map((name) => `${s.at}/properties/${name}`),
    );
    expect(statedRequired.length).toBeGreaterThan(0);
    expect(others.length).toBeGreaterThan(statedRequired.length);
    // A property shared by reference with an inferred one would carry its mark: none is.
    for (const at of others) expect(description(at), at).not.toContain(MARK);
  });

  it("says the sentence once per operation on the whole page, not once per field", () => {
    const page = JSON.stringify(doc);
    const saying = operations.filter((op) =>
      String(op.node.description ?? "").includes(INFERRED_REQUIRED_HEADING),
    );
    expect(count(page, INFERRED_REQUIRED_HEADING)).toBe(saying.length);
    const fields = inferredSchemas.reduce((n, s) => n + s.inferred.length, 0);
    expect(fields).toBeGreaterThan(saying.length);
  });
});
