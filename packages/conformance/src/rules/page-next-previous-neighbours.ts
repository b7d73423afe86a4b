// Page lists: `next` names the following page and `previous` the one before; page 1 has no previous.

import { linkQuery } from "../facts/pages.js";
import { pageLists } from "./lists.js";
import { rule } from "./types.js";

export const pageNextPreviousNeighbours = rule({
  ...pageLists,
  id: "pagination.page.next-previous-neighbours",
  severity: "must",
  refuses: false,
  perOperation: true,
  title: (operation) =>
    `${operation.operationId}: next leads to the following page and previous back to the one before`,
  judges:
    "every page: next names page + 1, previous page − 1 (a page past the last: left open), page 1's previous is null",
  on: "pagePage",
  judge: ({ page, next, previous, list, answer, count, limit, items }) => {
    const { pageParam, nextField, previousField } = list.pagination;
    const problems: string[] = [];
    const named = (link: string) => {
      const value = new URLSearchParams(linkQuery(link)).get(pageParam);
      return value === null ? undefined : Number(value);
    };
    if (page === 1 && previous !== null)
      problems.push(`${answer.url} is page 1 but has ${previousField} ${JSON.stringify(previous)}`);
    // A page past the last (fuzz asks for page 2^31): the seed says nothing of which page its
    // previous names, the last one or none.
    const pastTheEnd =
      items === 0 && count !== undefined && limit !== undefined && (page - 1) * limit >= count;
    for (const [field, link, expected] of [
      [nextField, next, page + 1],
      [previousField, previous, page - 1],
    ] as const) {
      if (link === null || (field === previousField && (page === 1 || pastTheEnd))) continue;
      const at = named(link);
      if (at !== undefined && at !== expected)
        problems.push(`${answer.url} is page ${page} but its ${field} "${link}" names ${pageParam} ${at}`);
    }
    return problems.length > 0 ? problems.join("\n") : null;
  },
});
