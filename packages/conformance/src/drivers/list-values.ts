// The values a list driver asks each filter for: those the spec enumerates, else (an id, a client)
// a few the unfiltered list holds.

import { fieldOf } from "../json.js";
import type { ListFilter } from "../list-facts.js";

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

/** Two values of a repeated filter asked at once, when there are two. */
export const twoOf = (values: string[]): string[] | undefined =>
  values.length >= 2 ? [values[0] as string, values.at(-1) as string] : undefined;
