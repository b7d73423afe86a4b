// Where the run finds a valid value for each path parameter: the spec package's fixture registry
// (FIXTURES), checked against the suite's spec model before it is read. A value the discovery
// gives is read from the run; one a list or a create's task gives is read from the answers the
// run has seen (src/active/run-values.ts keeps them).

import {
  checkFixtures,
  createdKeyOf,
  FIXTURES,
  type Fixtures,
  listItemsField,
  matchOperation,
  type OperationModel,
  operationById,
  type PathValueSource,
} from "@platform-api/spec";
import type { ObservedExchange } from "../shared/exchange.js";
import { fieldOf } from "../shared/json.js";
import { specModel } from "./spec.js";

let checked = false;

/**
 * Each path parameter of the operation with where its value comes from. `fixtures` is the spec's
 * registry but in tests, which give a source no operation of the spec has yet.
 */
export function pathSources(
  operation: OperationModel,
  fixtures: Fixtures = FIXTURES,
): [name: string, from: PathValueSource][] {
  if (!checked) checkFixtures(specModel(), FIXTURES);
  checked = true;
  const entry = fixtures[operation.operationId];
  if (!entry) throw new Error(`the fixture registry has no entry for ${operation.operationId}`);
  return operation.parameters
    .filter((p) => p.in === "path")
    .map((p) => [p.name, (entry.path[p.name] as { from: PathValueSource }).from]);
}

/** Whether a path value of the operation exists only once a create's task finished (needs writes). */
export const needsCreated = (operation: OperationModel, fixtures: Fixtures = FIXTURES): boolean =>
  pathSources(operation, fixtures).some(([, from]) => "created" in from);

/** The key under which the run keeps what a list or created source has given. */
export function sourceKey(from: Exclude<PathValueSource, { discovery: string }>): string {
  return "list" in from ? `list ${from.list}.${from.field}` : `created ${from.created}`;
}

/** Every list and created source the registry names, each once. */
function seenSources(fixtures: Fixtures): Exclude<PathValueSource, { discovery: string }>[] {
  const all = Object.values(fixtures).flatMap((entry) => Object.values(entry.path).map((f) => f.from));
  const sources = all.filter(
    (from): from is Exclude<PathValueSource, { discovery: string }> => !("discovery" in from),
  );
  return [...new Map(sources.map((from) => [sourceKey(from), from])).values()];
}

/** What a successful answer gives the sources that read it: a list's items' field, a finished task's created resources. */
export function valuesOfExchange(
  exchange: ObservedExchange,
  fixtures: Fixtures = FIXTURES,
): [key: string, values: (string | number)[]][] {
  if (exchange.status === null || exchange.status < 200 || exchange.status > 299 || !exchange.body) return [];
  const model = specModel();
  const operationId = matchOperation(model, exchange.method, exchange.url.split("?")[0] ?? "")?.operation
    .operationId;
  if (operationId === undefined) return [];
  // Only an answer some source reads is parsed (most are read by none).
  const reading = seenSources(fixtures).filter((from) =>
    "list" in from
      ? from.list === operationId
      : operationById(model, from.created).asyncTask?.pollOperationId === operationId,
  );
  if (reading.length === 0) return [];
  let body: unknown;
  try {
    body = JSON.parse(exchange.body);
  } catch {
    return [];
  }
  return reading.flatMap((from) => {
    const items =
      "list" in from
        ? listed(fieldOf(body, listItemsField(model, from) ?? ""), from.field)
        : listed(fieldOf(fieldOf(body, "created_resources"), createdKeyOf(model, from.created) ?? ""));
    return items.length > 0 ? [[sourceKey(from), items] as [string, (string | number)[]]] : [];
  });
}

/** The strings and numbers of an array (of its items' `field`, when given). */
function listed(value: unknown, field?: string): (string | number)[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((item) => (field === undefined ? item : fieldOf(item, field)))
    .filter((v): v is string | number => typeof v === "string" || typeof v === "number");
}
