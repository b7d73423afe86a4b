// Offset lists: `count` stays the same on every page of a walk.

import { offsetLists } from "./lists.js";
import { rule } from "./types.js";

export const offsetCountStable = rule({
  ...offsetLists,
  id: "pagination.offset.count-stable",
  severity: "must",
  refuses: false,
  perOperation: true,
  judges: "every page that continues a walk: the same count as the walk's earlier pages",
  on: "offsetPage",
  title: (operation) => `${operation.operationId}: count stays the same on every page`,
  judge: ({ walk, count, offset, list }) =>
    !walk.continues || walk.walkCount === undefined
      ? undefined
      : count === walk.walkCount
        ? null
        : `${list.pagination.countField} changed during the walk: ${walk.walkCount} on the earlier pages, ${count} at ${list.offset.name} ${offset}`,
});
