// Page lists: `count` is the total: the same on every page of a walk, no item on two pages, and a
// walk that has seen every page up to the one that reaches count visited count items.

import { pageLists } from "./lists.js";
import { rule } from "./types.js";

export const pageCountIsTotal = rule({
  ...pageLists,
  id: "pagination.page.count-is-total",
  severity: "must",
  refuses: false,
  perOperation: true,
  judges: "every walk: the same count on every page, no item twice, count items in all",
  on: "pagePage",
  title: (operation) =>
    `${operation.operationId}: count is the total: the same on every page, and following next visits count items, each once`,
  // The seed gives the AI task list's count a default: answers may leave it out.
  unjudged: () => "no walk of several pages whose answers carry count",
  judge: ({ walk, count, page, answer, list }) => {
    if (count === undefined) return undefined;
    const { countField } = list.pagination;
    const problems: string[] = [];
    if (walk.continues && walk.walkCount !== undefined && walk.walkCount !== count)
      problems.push(
        `${countField} changed during the walk: ${walk.walkCount} on the earlier pages, ${count} on page ${page}`,
      );
    if (walk.repeated.length > 0)
      problems.push(
        `${answer.url} repeats items an earlier page had: ${walk.repeated.slice(0, 5).join(", ")}`,
      );
    if (walk.visitedAtEnd !== undefined && walk.visitedAtEnd !== count)
      problems.push(`the pages held ${walk.visitedAtEnd} distinct items; ${countField} says ${count}`);
    if (problems.length > 0) return problems.join("\n");
    return walk.continues || walk.visitedAtEnd !== undefined ? null : undefined;
  },
});
