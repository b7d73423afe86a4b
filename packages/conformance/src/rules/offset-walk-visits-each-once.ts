// Offset lists: a walk by limit from offset 0 until offset >= count (the seed's rule) meets no item
// twice and visits as many items as count says.

import { offsetLists } from "./lists.js";
import { rule } from "./types.js";

export const offsetWalkVisitsEachOnce = rule({
  ...offsetLists,
  id: "pagination.offset.walk-visits-each-once",
  severity: "must",
  refuses: false,
  perOperation: true,
  judges: "every walk: no item twice; a walk from offset 0 to offset >= count visits count items",
  on: "offsetPage",
  title: (operation) =>
    `${operation.operationId}: walking by limit until offset >= count visits every item exactly once`,
  judge: ({ walk, count, answer, list }) => {
    const problems: string[] = [];
    if (walk.repeated.length > 0)
      problems.push(
        `${answer.url} repeats items an earlier page of the walk had: ${walk.repeated.slice(0, 5).join(", ")}`,
      );
    if (walk.visitedAtEnd !== undefined && walk.visitedAtEnd !== count)
      problems.push(
        `the walk ended at ${answer.url} having visited ${walk.visitedAtEnd} distinct items; ${list.pagination.countField} says ${count}`,
      );
    if (problems.length > 0) return problems.join("\n");
    return walk.continues || walk.visitedAtEnd !== undefined ? null : undefined;
  },
});
