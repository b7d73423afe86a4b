// What one operation of the description reaches: the nodes Redoc renders under its heading, through
// every local $ref. The reference says some things once per operation (the platform's marks, the
// fields required by inference) while the nodes that carry them are often shared components, shown
// under several operations: only a walk from each operation tells which of them it shows.
import { resolvePointer } from "@platform-api/spec";
import { isObject, type Json } from "./operations.js";

/** The node a `$ref` names, itself (not a merged copy, so it can be told apart and changed); the node when it is none. */
export function target(doc: Json, node: Json): Json {
  let current: unknown = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 32) throw new Error(`More than 32 chained $refs from ${String(node.$ref)}.`);
    current = resolvePointer(doc, current.$ref);
  }
  if (!isObject(current)) throw new Error(`${String(node.$ref)} names nothing in the description.`);
  return current;
}

/** Every object node under `root`, each once, through $refs; `enter` sees the $ref node and its target. */
export function eachReached(doc: Json, root: Json, enter: (node: Json) => void): void {
  const seen = new Set<Json>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    enter(node);
    if (typeof node.$ref === "string") visit(target(doc, node));
    for (const child of Object.values(node)) visit(child);
  };
  visit(root);
}

/** Whether any node under `root` (through $refs) has `key`. */
export function reachesKey(doc: Json, root: Json, key: string): boolean {
  let found = false;
  eachReached(doc, root, (node) => {
    if (key in node) found = true;
  });
  return found;
}

/** An object schema an operation shows, with where: "request body" or "<status> answer", and its field path. */
export interface ShownSchema {
  schema: Json;
  body: string;
  /** The field path to its properties: "" at the body's top, `results[].` under the items of results. */
  prefix: string;
}

/**
 * Every schema of an operation's request and answer bodies, each with the field path Redoc shows
 * its properties under (a shared schema, once per place it appears; a schema inside itself, once).
 */
export function bodySchemas(doc: Json, operation: Json): ShownSchema[] {
  const shown: ShownSchema[] = [];
  const walk = (node: unknown, body: string, prefix: string, inside: Set<Json>) => {
    if (!isObject(node)) return;
    const schema = target(doc, node);
    if (inside.has(schema)) return;
    const path = new Set(inside).add(schema);
    shown.push({ schema, body, prefix });
    if (isObject(schema.properties))
      for (const [name, property] of Object.entries(schema.properties)) {
        walk(property, body, `${prefix}${name}.`, path);
      }
    if (schema.items !== undefined) walk(schema.items, body, `${prefix.replace(/\.$/, "")}[].`, path);
    for (const key of ["allOf", "anyOf", "oneOf"] as const) {
      const list = schema[key];
      if (Array.isArray(list)) for (const part of list) walk(part, body, prefix, path);
    }
  };
  const media = (holder: unknown, body: string) => {
    if (!isObject(holder)) return;
    const content = target(doc, holder).content;
    if (!isObject(content)) return;
    for (const type of Object.values(content))
      if (isObject(type) && type.schema !== undefined) walk(type.schema, body, "", new Set());
  };
  media(operation.requestBody, "request body");
  const responses = isObject(operation.responses) ? operation.responses : {};
  for (const [status, response] of Object.entries(responses)) media(response, `${status} answer`);
  return shown;
}
