// Every list's filters (src/facts/list-facts.ts: a query parameter naming a field of the items), on every
// page of every walk that carries them: each item has the value asked (one of them, for a repeated
// parameter). A server that filters only the first page, or ignores a filter the spec documents,
// fails here in an active run (whose drivers walk every filter in small pages) and in traffic alike.

import type { OperationModel } from "@platform-api/spec";
import { identity, listFilters } from "../facts/list-facts.js";
import { fieldOf } from "../shared/json.js";
import { offsetLists, pageLists } from "./lists.js";
import type { OffsetPageEvent, PagePageEvent, Verdict } from "./types.js";
import { rule } from "./types.js";

const hasFilters = (operation: OperationModel) => listFilters(operation).length > 0;
const title = (operation: OperationModel) =>
  `${operation.operationId}: ${listFilters(operation)
    .map((f) => f.parameter.name)
    .join(", ")} return only matching items, on every page`;

/** A UUID is the same in either case (RFC 9562): a server may match it so. */
const sameValue = (format: string | undefined) => (a: string, b: string) =>
  format === "uuid" ? a.toLowerCase() === b.toLowerCase() : a === b;

function judgeFilters({
  operation,
  query,
  itemList,
  answer,
  exchange,
}: OffsetPageEvent | PagePageEvent): Verdict {
  const asked = listFilters(operation)
    // A value whose effect the spec leaves open (fuzz says so: an id past 2^53) is not judged.
    .filter((f) => !exchange.openParameters?.includes(f.parameter.name))
    .map((f) => ({ ...f, values: query.getAll(f.parameter.name) }))
    .filter((f) => f.values.length > 0);
  if (asked.length === 0) return undefined;
  const problems: string[] = [];
  for (const { field, values, parameter } of asked) {
    const same = sameValue(parameter.format ?? parameter.items?.format);
    const stray = itemList.filter((item) => {
      const value = fieldOf(item, field);
      return value === undefined || value === null || !values.some((v) => same(v, String(value)));
    });
    if (stray.length > 0)
      problems.push(
        `${answer.url} holds ${stray.length} of ${itemList.length} items whose ${field} is not ${values.join(" or ")} (e.g. ${identity(stray[0])}: ${JSON.stringify(fieldOf(stray[0], field) ?? null)})`,
      );
  }
  return problems.length > 0 ? problems.join("\n") : null;
}

const common = {
  severity: "must" as const,
  refuses: false,
  perOperation: true,
  judges: "every page asked with a filter: each item carries the value asked",
  title,
  unjudged: () => "no page was asked with a filter",
  judge: judgeFilters,
};

export const offsetFilters = rule({
  ...offsetLists,
  ...common,
  id: "pagination.offset.filters",
  appliesTo: "every x-pagination list of style offset with a query parameter naming a field of its items",
  applies: (operation) => offsetLists.applies(operation) && hasFilters(operation),
  on: "offsetPage",
});

export const pageFilters = rule({
  ...pageLists,
  ...common,
  id: "pagination.page.filters",
  appliesTo: "every x-pagination list of style page with a query parameter naming a field of its items",
  applies: (operation) => pageLists.applies(operation) && hasFilters(operation),
  on: "pagePage",
});
