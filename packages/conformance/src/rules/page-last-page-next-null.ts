// Page lists: the page that reaches count is not empty and its `next` is null; page 1's `previous`
// is null.

import { pageLists } from "./lists.js";
import { rule } from "./types.js";

export const pageLastPageNextNull = rule({
  ...pageLists,
  id: "pagination.page.last-page-next-null",
  severity: "must",
  refuses: false,
  perOperation: true,
  judges: "every page that reaches count: not empty, next null; page 1: previous null",
  on: "pagePage",
  title: (operation) =>
    `${operation.operationId}: the last page's next is null, and page 1's previous is null`,
  unjudged: () => "no last page of a list whose answers carry count",
  judge: ({ page, limit, count, items, next, previous, answer, list }) => {
    const { nextField, previousField } = list.pagination;
    const problems: string[] = [];
    if (page === 1 && previous !== null)
      problems.push(`${answer.url} is page 1 but has ${previousField} ${JSON.stringify(previous)}`);
    if (count === undefined || limit === undefined || limit < 1 || count === 0)
      return problems.length > 0 ? problems.join("\n") : undefined;
    const last = Math.ceil(count / limit);
    if (page !== last) return problems.length > 0 ? problems.join("\n") : page === 1 ? null : undefined;
    if (items === 0)
      problems.push(`${answer.url} is the last page (${count} items by ${limit}) but holds none`);
    if (next !== null)
      problems.push(
        `${answer.url} is the last page (${count} items by ${limit}) but has ${nextField} ${JSON.stringify(next)}; expected null`,
      );
    return problems.length > 0 ? problems.join("\n") : null;
  },
});
