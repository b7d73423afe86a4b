// Small readers of untyped description nodes, shared by the model's modules.
import { type JsonObject, resolvePointer } from "../ref.js";

/** The pointer of the node a chain of references ends at, else `here` (the node is inline). */
export function targetPointer(doc: JsonObject, node: unknown, here: string): string {
  let at = here;
  let current = node;
  for (let hops = 0; isRef(current) && hops < 20; hops++) {
    at = current.$ref;
    current = resolvePointer(doc, at);
  }
  return at;
}

export function withoutUnspecified(node: JsonObject): JsonObject {
  const { "x-unspecified": _open, ...rest } = node;
  return rest;
}

export const escapeSegment = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
export function isRef(value: unknown): value is { $ref: string } {
  return isObject(value) && typeof value.$ref === "string";
}
