// Every list's orderings (src/facts/list-facts.ts: an enumerated parameter whose values name fields of
// the items) sort ascending by that field: within every page, and across the pages of a walk where
// the judge saw the neighbouring page. A value that names no field (the AI task list's started_at)
// is the default order's key, whose direction the spec leaves open: not judged here.

import type { OperationModel } from "@platform-api/spec";
import { listOrderings } from "../facts/list-facts.js";
import { fieldOf } from "../shared/json.js";
import { offsetLists, pageLists } from "./lists.js";
import type { OffsetPageEvent, PagePageEvent, Verdict } from "./types.js";
import { rule } from "./types.js";

const hasOrderings = (operation: OperationModel) => listOrderings(operation).length > 0;
const title = (operation: OperationModel) =>
  listOrderings(operation)
    .map(
      (o) =>
        `${operation.operationId}: ${o.parameter.name}=${o.byField.join(", ")} sort ascending across pages`,
    )
    .join("; ");

/** Strings in code-unit order, numbers by value; what cannot be compared is not judged. */
function outOfOrder(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a > b;
  if (typeof a === "string" && typeof b === "string") return a > b;
  return false;
}

function judgeOrdering({
  operation,
  query,
  itemList,
  walk,
  answer,
}: OffsetPageEvent | PagePageEvent): Verdict {
  const problems: string[] = [];
  let judged = false;
  for (const { parameter, byField } of listOrderings(operation)) {
    const field = query.get(parameter.name);
    if (field === null || !byField.includes(field)) continue;
    judged = true;
    const before = walk.before === undefined ? [] : [walk.before];
    const after = walk.after === undefined ? [] : [walk.after];
    const values = [...before, ...itemList, ...after].map((item) => fieldOf(item, field));
    const at = values.findIndex((v, i) => i > 0 && outOfOrder(values[i - 1], v));
    if (at > 0)
      problems.push(
        `${answer.url}: ${parameter.name}=${field} but ${JSON.stringify(values[at - 1])} comes before ${JSON.stringify(values[at])}${before.length > 0 && at === 1 ? " (the last item of the page before)" : ""}${after.length > 0 && at === values.length - 1 ? " (the first item of the page after)" : ""}`,
      );
  }
  if (!judged) return undefined;
  return problems.length > 0 ? problems.join("\n") : null;
}

const common = {
  severity: "must" as const,
  refuses: false,
  perOperation: true,
  judges:
    "every page asked with an ordering by an item field: sorted ascending, also against the pages around it",
  title,
  unjudged: () => "no page was asked with an ordering by an item field",
  judge: judgeOrdering,
};

export const offsetOrdering = rule({
  ...offsetLists,
  ...common,
  id: "pagination.offset.ordering-sorts",
  appliesTo: "every x-pagination list of style offset with an ordering parameter",
  applies: (operation) => offsetLists.applies(operation) && hasOrderings(operation),
  on: "offsetPage",
});

export const pageOrdering = rule({
  ...pageLists,
  ...common,
  id: "pagination.page.ordering-sorts",
  appliesTo: "every x-pagination list of style page with an ordering parameter",
  applies: (operation) => pageLists.applies(operation) && hasOrderings(operation),
  on: "pagePage",
});
