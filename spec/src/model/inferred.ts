// What the description requires by inference, not because the platform's documentation says so.
// The documentation lists most resources' fields without saying which are always present; the
// description requires them ("a resource's listed fields are required", spec/README.md) and names
// them in the schema's `x-inferred-required`. Fields the documentation states as required (a
// "Required" column saying yes) are not named there.
//
// Callers that must not treat an inference as a statement see the description with those names
// taken out of `required` (`withoutInferredRequired`): the Ajv set-up's `inferred: "optional"`
// and the client's generated types read the same copy, so they draw the same line; the docs and
// the types' JSDoc say which fields those are (`noteInferredRequired`).
import { pointer } from "../ref.js";
import { isObject } from "./json.js";

export const INFERRED_REQUIRED = "x-inferred-required";

/** Field names required only by inference, keyed by the pointer of the schema that requires them. */
export type InferredRequired = Readonly<Record<string, readonly string[]>>;

/** Visits every object of a JSON tree with its path, parents before children. */
function visit(
  node: unknown,
  path: string[],
  enter: (node: Record<string, unknown>, path: string[]) => void,
) {
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) visit(child, [...path, String(i)], enter);
    return;
  }
  if (!isObject(node)) return;
  enter(node, path);
  for (const [key, child] of Object.entries(node)) visit(child, [...path, key], enter);
}

/**
 * Every `x-inferred-required` of a description, keyed by its schema's pointer. Refuses one that is
 * not a list of names the same schema's `required` lists, naming where (the lint rule
 * `platform/inferred-required` says the same of the source files).
 */
export function readInferredRequired(doc: unknown): InferredRequired {
  const found: Record<string, readonly string[]> = {};
  visit(doc, [], (node, path) => {
    if (!(INFERRED_REQUIRED in node)) return;
    const at = pointer(...path);
    const names = node[INFERRED_REQUIRED];
    if (!Array.isArray(names) || !names.every((n): n is string => typeof n === "string"))
      throw new Error(`${INFERRED_REQUIRED} at ${at} is not a list of field names.`);
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    const outside = names.filter((n) => !required.has(n));
    if (outside.length > 0)
      throw new Error(
        `${INFERRED_REQUIRED} at ${at} names ${outside.join(", ")}, which its schema does not require.`,
      );
    found[at] = names;
  });
  return found;
}

/**
 * A copy of a description in which every schema requires only what the platform's documentation
 * states: the names of its `x-inferred-required` are taken out of its `required` (which goes when
 * it empties).
 */
export function withoutInferredRequired<T>(doc: T): T {
  const copy = structuredClone(doc);
  visit(copy, [], (node) => {
    const inferred = new Set(inferredNames(node));
    if (inferred.size === 0) return;
    const required = (Array.isArray(node.required) ? node.required : []).filter((n) => !inferred.has(n));
    if (required.length > 0) node.required = required;
    else delete node.required;
  });
  return copy;
}

/**
 * A copy of a description in which the description of every field required by inference ends with
 * `note`, for the readers of what is made from it (the reference's pages, the types' JSDoc).
 */
export function noteInferredRequired<T>(doc: T, note: string): T {
  const copy = structuredClone(doc);
  visit(copy, [], (node) => {
    if (!isObject(node.properties)) return;
    for (const name of inferredNames(node)) {
      const property = node.properties[name];
      if (!isObject(property)) continue;
      const description = typeof property.description === "string" ? property.description.trimEnd() : "";
      property.description = description ? `${description}\n\n${note}` : note;
    }
  });
  return copy;
}

const inferredNames = (node: Record<string, unknown>): string[] => {
  const names = node[INFERRED_REQUIRED];
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
};
