// Offset lists: without `limit`, a page holds up to the default the spec documents (a `should`: the
// documentation shows the default, it does not state it as a rule).

import { offsetLists } from "./lists.js";
import { rule } from "./types.js";

export const offsetDefaultLimit = rule({
  ...offsetLists,
  id: "pagination.offset.default-limit",
  severity: "should",
  refuses: false,
  perOperation: true,
  judges: "every page asked without limit: min(the documented default, what count leaves) items",
  on: "offsetPage",
  title: (operation) => {
    const limit = operation.parameters.find(
      (p) => operation.pagination?.style === "offset" && p.name === operation.pagination.limitParam,
    );
    return `${operation.operationId}: without ${limit?.name} a page holds up to ${limit?.default ?? "the default number of"} items (the documented default)`;
  },
  unjudged: () => "no page asked without limit, or the spec documents no default",
  judge: ({ limitAsked, limit, items, count, offset, list, answer }) => {
    if (limitAsked || limit === undefined) return undefined;
    const expected = Math.min(limit, Math.max(0, count - offset));
    return items === expected
      ? null
      : `without ${list.limit.name}, ${answer.url} holds ${items} items; ${list.pagination.countField} is ${count}, so the default ${limit} gives ${expected}`;
  },
});
