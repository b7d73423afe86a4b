// What both list drivers ask of a list's selection (src/facts/list-facts.ts): each filter walked with the
// values the spec enumerates, else (an id, a client) a few the unfiltered list holds, a repeated
// filter with two values at once, and each ordering by an item field.

import type { OperationModel } from "@platform-api/spec";
import type { Query } from "../../facts/api.js";
import { type ListFilter, listFilters, listOrderings } from "../../facts/list-facts.js";
import { fieldOf } from "../../shared/json.js";

/** Values of the spec's enum (of the parameter, or of its items when it repeats), else seen ones. */
export function filterValues(filter: ListFilter, items: unknown[], most = 2): string[] {
  const listed = filter.parameter.enum ?? filter.parameter.items?.enum;
  if (listed && listed.length > 0) return listed.map(String);
  const seen = items
    .map((item) => fieldOf(item, filter.field))
    .filter((v) => typeof v === "string" || typeof v === "number")
    .map(String);
  return [...new Set(seen)].slice(0, most);
}

/** The dry run's lines for the selection walks. */
export const selectionCalls = (operation: OperationModel): string[] => [
  ...listFilters(operation).map((f) => `GET ?${f.parameter.name}=<each value>, walked in small pages`),
  ...listOrderings(operation).flatMap((o) =>
    o.byField.map((field) => `GET ?${o.parameter.name}=${field}, walked in small pages`),
  ),
];

/** Walks the list once per selection (`walk` reads it in small pages); `items`: the unfiltered list. */
export async function walkSelections(
  operation: OperationModel,
  items: unknown[],
  walk: (query: Query) => Promise<unknown>,
): Promise<void> {
  for (const filter of listFilters(operation)) {
    const values = filterValues(filter, items);
    for (const value of values) await walk({ [filter.parameter.name]: value });
    if (filter.many && values.length >= 2)
      await walk({ [filter.parameter.name]: [values[0] as string, values.at(-1) as string] });
  }
  for (const ordering of listOrderings(operation))
    for (const field of ordering.byField) await walk({ [ordering.parameter.name]: field });
}
