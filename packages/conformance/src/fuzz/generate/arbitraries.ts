// The fuzz phase's generators: fast-check arbitraries of an operation's query and body, built from
// the spec model's facts and the body's JSON schema. Each mixes values the spec allows (in bounds,
// enum members, well-formed UUIDs and dates, any text) with values it forbids (past the bounds,
// outside the enum, the wrong type, a required field left out), so the checks see both; fast-check
// shrinks a failing request to the smallest that still fails.

import type { JsonObject, OperationModel, ValueFacts } from "@platform-api/spec";
import fc from "fast-check";
import { requestSchemaPointer, requiredOf, schemaAt } from "../../facts/spec.js";
import type { FuzzRequest } from "../../shared/finding.js";
import { BEYOND_INT32, LONG_TEXT, MAX_QUERY_LENGTH, UNUSUAL_TEXT, URL_PUNCTUATION } from "./values.js";

const typesOf = (facts: ValueFacts): string[] =>
  Array.isArray(facts.type) ? [...facts.type] : facts.type === undefined ? [] : [facts.type as string];

const oddText = fc.constantFrom("", UNUSUAL_TEXT, URL_PUNCTUATION, LONG_TEXT);
const anyText = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }) },
  { weight: 1, arbitrary: oddText },
);

/** One value as a query carries it (a string), allowed or not. */
export function wireValue(facts: ValueFacts): fc.Arbitrary<string> {
  const types = typesOf(facts);
  if (Array.isArray(facts.enum) && facts.enum.length > 0)
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...facts.enum.map(String)) },
      { weight: 1, arbitrary: anyText },
    );
  if (types.includes("integer") || types.includes("number")) {
    const min = facts.minimum ?? -1000;
    const max = facts.maximum ?? Math.max(min + 1000, 100_000);
    return fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min, max }).map(String) },
      { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1, 0, -1, BEYOND_INT32).map(String) },
      { weight: 1, arbitrary: fc.oneof(fc.double({ noNaN: true }).map(String), anyText) },
    );
  }
  if (types.includes("boolean")) return fc.oneof(fc.constantFrom("true", "false"), anyText);
  if (facts.format === "uuid")
    return fc.oneof(
      { weight: 3, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
      { weight: 1, arbitrary: anyText },
    );
  if (facts.format === "date-time")
    return fc.oneof(
      fc
        .date({ min: new Date("1970-01-01"), max: new Date("2200-01-01"), noInvalidDate: true })
        .map((d) => d.toISOString()),
      anyText,
    );
  return anyText;
}

/** The query of one request: any subset of the documented query parameters, each with a value. */
export function queryArbitrary(operation: OperationModel): fc.Arbitrary<[string, string][]> {
  const parameters = operation.parameters.filter((p) => p.in === "query");
  const model: Record<string, fc.Arbitrary<string[]>> = {};
  for (const p of parameters)
    model[p.name] =
      p.type === "array" && p.items
        ? fc.array(wireValue(p.items), { minLength: 1, maxLength: 3 })
        : wireValue(p).map((v) => [v]);
  return fc
    .record(model, { requiredKeys: [] })
    .map((picked) =>
      Object.entries(picked).flatMap(([name, values]) =>
        (values ?? []).map((v): [string, string] => [name, v]),
      ),
    )
    .filter((query) => new URLSearchParams(query).toString().length <= MAX_QUERY_LENGTH);
}

/** A JSON value the schema at `pointer`/`segments` allows (depth-bounded; `$ref`s followed). */
function jsonOf(pointer: string, segments: string[], depth: number): fc.Arbitrary<unknown> {
  const node = schemaAt(pointer, ...segments) as (JsonObject & ValueFacts) | undefined;
  if (!node || depth > 4) return fc.constant(null);
  if (Array.isArray(node.enum) && node.enum.length > 0) return fc.constantFrom(...node.enum);
  const types = typesOf(node);
  const options: fc.Arbitrary<unknown>[] = [];
  if (types.includes("object") || node.properties) {
    const properties = Object.keys((node.properties as JsonObject | undefined) ?? {});
    const model = Object.fromEntries(
      properties.map((name) => [name, jsonOf(pointer, [...segments, "properties", name], depth + 1)]),
    );
    const required = requiredOf(node).filter((name) => properties.includes(name));
    options.push(fc.record(model, { requiredKeys: required }));
  }
  if (types.includes("array"))
    options.push(fc.array(jsonOf(pointer, [...segments, "items"], depth + 1), { maxLength: 3 }));
  if (types.includes("integer"))
    options.push(fc.integer({ min: node.minimum ?? -1000, max: node.maximum ?? 100_000 }));
  if (types.includes("number")) options.push(fc.double({ noNaN: true, noDefaultInfinity: true }));
  if (types.includes("string")) options.push(node.format === "uuid" ? fc.uuid() : anyText);
  if (types.includes("boolean")) options.push(fc.boolean());
  if (types.includes("null")) options.push(fc.constant(null));
  if (options.length === 0) options.push(fc.oneof(anyText, fc.integer(), fc.boolean(), fc.constant(null)));
  return fc.oneof(...options);
}

/** A body of the operation: one its schema allows, or one with a required field left out or a field of the wrong type. */
export function bodyArbitrary(operation: OperationModel): fc.Arbitrary<unknown> {
  const pointer = requestSchemaPointer(operation);
  const valid = jsonOf(pointer, [], 0);
  const root = schemaAt(pointer);
  const properties = Object.keys((root?.properties as JsonObject | undefined) ?? {});
  const required = requiredOf(root);
  const broken: fc.Arbitrary<unknown>[] = [];
  if (required.length > 0)
    broken.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([body, name]) => {
        if (typeof body !== "object" || body === null) return body;
        const { [name]: _left, ...rest } = body as Record<string, unknown>;
        return rest;
      }),
    );
  if (properties.length > 0)
    broken.push(
      fc
        .tuple(valid, fc.constantFrom(...properties), fc.constantFrom<unknown>("wrong", 12, true, [], {}))
        .map(([body, name, value]) => ({ ...(body as Record<string, unknown>), [name]: value })),
    );
  return broken.length === 0
    ? valid
    : fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: fc.oneof(...broken) });
}

/** A request of the operation: its base (path values from the run) with a generated query and body. */
export function requestArbitrary(operation: OperationModel, base: FuzzRequest): fc.Arbitrary<FuzzRequest> {
  const body = operation.requestBody ? bodyArbitrary(operation) : fc.constant(undefined);
  return fc.tuple(queryArbitrary(operation), body).map(([query, generated]) => ({
    ...base,
    query,
    ...(operation.requestBody ? { body: generated } : {}),
  }));
}
