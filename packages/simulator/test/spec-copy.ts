// A copy of the bundled description with some of its facts changed, for the tests that show the
// simulator follows the description it is given rather than facts of its own.

import { type JsonObject, loadBundle, resolvePointer } from "@platform-api/spec";

export function changedSpec(edit: (doc: JsonObject) => void): JsonObject {
  const doc = structuredClone(loadBundle());
  edit(doc);
  return doc;
}

/** The object at a pointer of the description ("#/components/parameters/Limit/schema"). */
export function nodeAt(doc: JsonObject, pointer: string): JsonObject {
  const node = resolvePointer<JsonObject>(doc, pointer);
  if (!node || typeof node !== "object") throw new Error(`The description has nothing at ${pointer}.`);
  return node;
}
