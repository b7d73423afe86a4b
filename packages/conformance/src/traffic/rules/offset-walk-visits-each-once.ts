// Offset lists: a walk by limit from offset 0 until offset >= count (the seed's rule) meets no
// item twice and visits as many items as count says.

import { offsetWalkVisitsEachOnce as check } from "../../checks/offset-walk-visits-each-once.js";
import { fromCheck, rule } from "./types.js";

export const offsetWalkVisitsEachOnce = rule({
  ...fromCheck(check),
  judges: "every walk: no item twice; a walk from offset 0 to offset >= count visits count items",
  on: "offsetPage",
  judge: ({ continues, repeated, visitedAtEnd, count, answer, list }) => {
    const problems: string[] = [];
    if (repeated.length > 0)
      problems.push(
        `${answer.url} repeats items an earlier page of the walk had: ${repeated.slice(0, 5).join(", ")}`,
      );
    if (visitedAtEnd !== undefined && visitedAtEnd !== count)
      problems.push(
        `the walk ended at ${answer.url} having visited ${visitedAtEnd} distinct items; ${list.pagination.countField} says ${count}`,
      );
    if (problems.length > 0) return problems.join("\n");
    return continues || visitedAtEnd !== undefined ? null : undefined;
  },
});
