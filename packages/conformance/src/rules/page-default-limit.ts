// Page lists: without `limit`, a page holds up to the default the spec documents (a `should`).

import { pageLists } from "./lists.js";
import { rule } from "./types.js";

export const pageDefaultLimit = rule({
  ...pageLists,
  id: "pagination.page.default-limit",
  severity: "should",
  refuses: false,
  perOperation: true,
  judges: "every page asked without limit, with count: min(the documented default, what count leaves) items",
  on: "pagePage",
  title: (operation) => {
    const limit = operation.parameters.find(
      (p) => operation.pagination?.style === "page" && p.name === operation.pagination.limitParam,
    );
    return `${operation.operationId}: without ${limit?.name} a page holds up to ${limit?.default ?? "the default number of"} items (the documented default)`;
  },
  unjudged: () => "no page asked without limit whose answer carries count, or the spec documents no default",
  judge: ({ limitAsked, limit, items, count, page, list, answer }) => {
    if (limitAsked || limit === undefined || count === undefined) return undefined;
    const expected = Math.max(0, Math.min(limit, count - (page - 1) * limit));
    return items === expected
      ? null
      : `without ${list.limit.name}, ${answer.url} holds ${items} items; expected ${expected} (${list.pagination.countField} ${count}, default ${limit})`;
  },
});
