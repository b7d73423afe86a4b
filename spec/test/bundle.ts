// The bundled description and its model for the spec tests, with typed reads of raw nodes for
// what the model leaves out (examples, descriptions, the schema facts the seed table checks).
import { type JsonObject, loadBundle, loadModel, pointer, resolvePointer, resolveRef } from "../lib/index.js";

export { loadBundle, loadModel };

export type Json = JsonObject;

/** A JSON Schema node of the description, with the keywords the tests read. */
export interface Schema {
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly pattern?: string;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: unknown;
  readonly deprecated?: boolean;
  readonly description?: string;
  readonly items?: unknown;
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: unknown;
  readonly examples?: readonly unknown[];
  readonly "x-unspecified"?: readonly string[];
  readonly [keyword: string]: unknown;
}

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The node at a path of segments under `root` ("components", "schemas", "Task"), or undefined. */
export const at = (root: unknown, ...segments: (string | number)[]): unknown =>
  resolvePointer<unknown>(root, pointer(...segments));

/** The object at a path of segments; throws, naming the path, when there is none. */
export function objectAt(root: unknown, ...segments: (string | number)[]): Json {
  const found = at(root, ...segments);
  if (!isObject(found)) throw new Error(`No object at ${pointer(...segments)}.`);
  return found;
}

/** The array at a path of segments; throws, naming the path, when there is none. */
export function arrayAt(root: unknown, ...segments: (string | number)[]): unknown[] {
  const found = at(root, ...segments);
  if (!Array.isArray(found)) throw new Error(`No array at ${pointer(...segments)}.`);
  return found;
}

/** The operation's node in the description, for what the model leaves out. */
export function operationNode(doc: unknown, op: { readonly key: string; readonly pointer: string }): Json {
  const node = resolvePointer<unknown>(doc, op.pointer);
  if (!isObject(node)) throw new Error(`${op.key}: no node at ${op.pointer}.`);
  return node;
}

/** A schema node with its `$ref`s followed (the referring node's own keywords kept). */
export const schemaOf = (doc: unknown, node: unknown): Schema | undefined => resolveRef<Schema>(doc, node);

/** The schema at a pointer such as a model's `schemaPointer`. */
export const schemaAt = (doc: unknown, schemaPointer: string): Schema | undefined =>
  schemaOf(doc, { $ref: schemaPointer });
