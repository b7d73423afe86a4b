// Every `x-unspecified` of the description becomes a visible note in the reference, on a node
// whose description Redoc renders.
import { loadBundle, loadModel, resolvePointer, resolveRef, taskPollingOf } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { isObject, type Json } from "../src/operations.js";
import { referenceDocument } from "../src/reference.js";
import { markUnspecified, sentenceHtml, unspecifiedHtml } from "../src/unspecified.js";

const bundle = loadBundle();
const model = loadModel();

function countMarkers(node: unknown): number {
  if (node === null || typeof node !== "object") return 0;
  const own = !Array.isArray(node) && Array.isArray((node as Json)["x-unspecified"]) ? 1 : 0;
  return own + Object.values(node).reduce<number>((n, child) => n + countMarkers(child), 0);
}

const at = (doc: Json, pointer: string) => resolveRef<Json>(doc, { $ref: pointer });

describe("notes for what the platform's documentation leaves open", () => {
  const { doc, notes } = referenceDocument(bundle);

  it("carries every x-unspecified of the description", () => {
    expect(countMarkers(bundle)).toBeGreaterThan(30);
    expect(notes).toHaveLength(countMarkers(bundle));
  });

  it("shows each note's sentences in the description of the node it is shown on", () => {
    for (const note of notes) {
      const description = String(at(doc, note.shownOn)?.description ?? "");
      for (const sentence of note.sentences)
        expect(description, `${note.from} on ${note.shownOn}`).toContain(sentenceHtml(sentence));
      expect(description).toContain('class="unspecified-note"');
    }
  });

  it("puts a note on the node itself when Redoc renders its description", () => {
    const byFrom = new Map(notes.map((n) => [n.from, n.shownOn]));
    expect(byFrom.get("#/info")).toBe("#/info");
    expect(byFrom.get("#/components/schemas/Project/properties/state")).toBe(
      "#/components/schemas/Project/properties/state",
    );
    // Every parameter written in an operation with an x-unspecified of its own shows it itself.
    const parameters = model.operations.flatMap((op) => {
      const own = resolvePointer<unknown[]>(bundle, `${op.pointer}/parameters`) ?? [];
      return own.flatMap((p, i) =>
        isObject(p) && Array.isArray(p["x-unspecified"]) ? [`${op.pointer}/parameters/${i}`] : [],
      );
    });
    expect(parameters.length).toBeGreaterThan(0);
    for (const at of parameters) expect(byFrom.get(at)).toBe(at);
    expect(byFrom.get("#/components/schemas/AiTask/properties/task_data")).toBe(
      "#/components/schemas/AiTask/properties/task_data",
    );
  });

  it("moves a note on an extension Redoc does not render to the operation that carries it", () => {
    const getTask = model.operations.find((op) => op.operationId === taskPollingOf(model).operationId);
    const from = `${getTask?.pointer}/x-task-polling`;
    expect(notes.find((n) => n.from === from)?.shownOn).toBe(getTask?.pointer);
  });

  it("keeps the original description in front of the note", () => {
    const original = String((bundle.info as Json).description).trimEnd();
    expect(String((doc.info as Json).description).startsWith(original)).toBe(true);
  });

  it("escapes HTML and renders code spans in the sentences", () => {
    expect(unspecifiedHtml(["a <b> & `c`"])).toContain("a &lt;b&gt; &amp; <code>c</code>");
    expect(unspecifiedHtml(["one", "two"])).toContain("<ul><li>one</li><li>two</li></ul>");
  });

  it("gives a node without a description one", () => {
    const doc: Json = {
      components: { schemas: { A: { type: "object", "x-unspecified": ["Its fields."] } } },
    };
    markUnspecified(doc);
    expect(String(at(doc, "#/components/schemas/A")?.description)).toContain("Its fields.");
  });

  it("keeps the deprecated field marked deprecated", () => {
    const field = at(doc, "#/components/schemas/RegionalLimits/properties/baremetal_gpu_count_limit");
    expect(field?.deprecated).toBe(true);
  });
});
