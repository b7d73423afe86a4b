// A record of the world holds every field its schema in the served description has: the world's
// tables give the values that make a world (names, countries, states), and what they leave out is
// filled here from the schema itself — the spec's examples, const, default or first enum member,
// else a value of its type and format. So a field the platform's facts add to the merged bundle is
// served at once, without a line of simulator code; a table that wants a more telling value gives
// it. The same idea as plausible() in spec/scripts/merge-platform.mjs, with $ref, allOf and the
// if/then a fact's "required when a sibling has a value" becomes.

import { resolveRef } from "@platform-api/spec";
import { EPOCH } from "./default/epoch.js";
import type { World } from "./types.js";

type Schema = { readonly [keyword: string]: unknown };
type Value = unknown;

/**
 * What each node of a description resolves to, per description: following pointers was most of
 * completing a record, and a store completes one for every task it creates. Nodes are read only,
 * never written, so a node resolves to the same schema every time.
 */
const resolved = new WeakMap<object, WeakMap<Schema, Schema>>();

/** The schema a local `$ref` names, followed to the end (the spec package's one resolver). */
function deref(doc: object, schema: Schema): Schema {
  let known = resolved.get(doc);
  if (!known) {
    known = new WeakMap();
    resolved.set(doc, known);
  }
  let target = known.get(schema);
  if (!target) {
    target = resolveRef<Schema>(doc, schema);
    if (!target) throw new Error(`The description's ${String(schema.$ref)} names no schema.`);
    known.set(schema, target);
  }
  return target;
}

/** The object schema's properties and required names, its allOf parts (and their if/then) folded in. */
function shape(doc: object, schema: Schema, value: Record<string, Value>) {
  const properties: Record<string, Schema> = {};
  const required = new Set<string>();
  const visit = (node: Schema) => {
    const resolved = deref(doc, node);
    Object.assign(properties, resolved.properties ?? {});
    for (const name of (resolved.required as string[] | undefined) ?? []) required.add(name);
    for (const part of (resolved.allOf as Schema[] | undefined) ?? []) visit(part);
    if (resolved.if && resolved.then && matches(doc, resolved.if as Schema, value))
      visit(resolved.then as Schema);
  };
  visit(schema);
  return { properties, required };
}

/** Whether `value` meets an `if` of the shape the merge writes: required names and enums of properties. */
function matches(doc: object, condition: Schema, value: Record<string, Value>): boolean {
  const resolved = deref(doc, condition);
  const required = (resolved.required as string[] | undefined) ?? [];
  if (!required.every((name) => name in value)) return false;
  return Object.entries((resolved.properties as Record<string, Schema> | undefined) ?? {}).every(
    ([name, property]) => {
      if (!(name in value)) return true;
      const allowed = deref(doc, property).enum as unknown[] | undefined;
      return allowed === undefined || allowed.some((v) => JSON.stringify(v) === JSON.stringify(value[name]));
    },
  );
}

const typesOf = (schema: Schema): string[] => [schema.type ?? []].flat().map(String);

/**
 * A value the schema allows, or undefined where the schema gives nothing to go on (a string of a
 * pattern without an example): the caller's table must give that one.
 */
export function plausible(doc: object, node: Schema): Value {
  const schema = deref(doc, node);
  const examples = schema.examples as unknown[] | undefined;
  if (examples?.length) return structuredClone(examples[0]);
  if (schema.example !== undefined) return structuredClone(schema.example);
  if ("const" in schema) return schema.const;
  if (schema.default !== undefined && schema.default !== null) return structuredClone(schema.default);
  const members = schema.enum as unknown[] | undefined;
  if (members?.length) return members.find((v) => v !== null) ?? null;
  const parts = (schema.allOf ?? schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (parts?.length && schema.type === undefined) return plausible(doc, parts[0] as Schema);
  const types = typesOf(schema);
  // Nothing said of a field that may be null: null is the one value that claims nothing.
  if (types.includes("null")) return null;
  const type = types.find((t) => t !== "null");
  switch (type) {
    case "boolean":
      return false;
    case "integer":
    case "number": {
      const min = schema.minimum ?? (schema.exclusiveMinimum as number | undefined);
      return typeof min === "number" ? (schema.minimum === undefined ? min + 1 : min) : 0;
    }
    case "array":
      return [];
    case "object":
      return complete(doc, schema, {});
    case "string":
      if (schema.format === "date-time") return new Date(EPOCH).toISOString();
      if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
      if (schema.format === "email") return "user@example.com";
      if (schema.pattern !== undefined) return types.includes("null") ? null : undefined;
      return "";
    default:
      return types.includes("null") ? null : undefined;
  }
}

/** Whether the schema itself states a value for the field (an example, const or default). */
function stated(doc: object, node: Schema): boolean {
  const schema = deref(doc, node);
  return (
    Boolean((schema.examples as unknown[] | undefined)?.length) ||
    schema.example !== undefined ||
    "const" in schema ||
    (schema.default !== undefined && schema.default !== null)
  );
}

/**
 * `record` with every required field of `schema` present (and every optional one whose value the
 * schema states), nested objects and arrays of objects completed too. Throws naming the field the
 * schema cannot give a value for. The record is not changed.
 */
export function complete<T>(doc: object, schema: Schema, record: T, where = "record"): T {
  const resolved = deref(doc, schema);
  if (Array.isArray(record)) {
    const items = resolved.items as Schema | undefined;
    return (items ? record.map((item, i) => complete(doc, items, item, `${where}[${i}]`)) : record) as T;
  }
  if (record === null || typeof record !== "object") return record;
  const value = { ...(record as Record<string, Value>) };
  const { properties, required } = shape(doc, resolved, value);
  for (const [name, property] of Object.entries(properties)) {
    if (name in value) {
      value[name] = complete(doc, property, value[name], `${where}.${name}`);
      continue;
    }
    if (!required.has(name) && !stated(doc, property)) continue;
    const filled = plausible(doc, property);
    if (filled === undefined)
      throw new Error(
        `${where}.${name}: the description gives no value to fill it with (a pattern without an example); give it in the world.`,
      );
    value[name] = filled;
  }
  // A required field the properties do not describe (if/then's names) cannot be made up.
  for (const name of required)
    if (!(name in value))
      throw new Error(`${where}.${name} is required by the description but not described.`);
  return value as T;
}

const component = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The world with each record the API answers completed from its schema (the spec's component of
 * that record). Applied to the default world and to a seed file alike, before a seed file is
 * checked: a seed written before a fact was merged still starts.
 */
export function completeWorld<W extends { [Table in keyof World]?: unknown }>(doc: object, given: W): W {
  const world = given as Partial<World>;
  // A table or row of the wrong shape is left as it is, for the world's schema to name.
  const all = <T>(rows: T[] | undefined, name: string, table: string) =>
    Array.isArray(rows) ? rows.map((row, i) => complete(doc, component(name), row, `/${table}/${i}`)) : rows;
  const records = <T extends { record: unknown }>(rows: T[] | undefined, name: string, table: string) =>
    Array.isArray(rows)
      ? rows.map((row, i) =>
          row !== null && typeof row === "object"
            ? { ...row, record: complete(doc, component(name), row.record, `/${table}/${i}/record`) }
            : row,
        )
      : rows;
  const done: Partial<World> = {
    ...world,
    clients: all(world.clients, "ClientAccount", "clients"),
    projects: all(world.projects, "Project", "projects"),
    regions: all(world.regions, "Region", "regions"),
    quota_limit_requests: all(world.quota_limit_requests, "QuotaLimitRequest", "quota_limit_requests"),
    protection_profile_templates: all(
      world.protection_profile_templates,
      "ProfileTemplate",
      "protection_profile_templates",
    ),
    ai_tasks: records(withProcessingStart(world.ai_tasks), "AiTask", "ai_tasks"),
    protection_profiles: records(world.protection_profiles, "ProtectionProfile", "protection_profiles"),
    tasks: records(world.tasks, "Task", "tasks"),
  };
  // A table the world does not have stays absent (a seed file's optional tables).
  for (const key of Object.keys(done) as (keyof World)[]) if (done[key] === undefined) delete done[key];
  return done as unknown as W;
}

/** An AI task of a seed without processing_time started when the world says it did. */
function withProcessingStart<T>(rows: T[] | undefined): T[] | undefined {
  if (!Array.isArray(rows)) return rows;
  return rows.map((row) => {
    const { record, started_at } = (row ?? {}) as { record?: Record<string, unknown>; started_at?: unknown };
    if (!record || typeof record !== "object" || "processing_time" in record || started_at === undefined)
      return row;
    return { ...row, record: { ...record, processing_time: { started_at } } };
  });
}
