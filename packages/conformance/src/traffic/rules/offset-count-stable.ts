// Offset lists: `count` stays the same on every page of a walk.

import { offsetCountStable as check } from "../../checks/offset-count-stable.js";
import { fromCheck, rule } from "./types.js";

export const offsetCountStable = rule({
  ...fromCheck(check),
  judges: "every page that continues a walk: the same count as the walk's earlier pages",
  on: "offsetPage",
  judge: ({ continues, walkCount, count, offset, list }) =>
    !continues || walkCount === undefined
      ? undefined
      : count === walkCount
        ? null
        : `${list.pagination.countField} changed during the walk: ${walkCount} on the earlier pages, ${count} at ${list.offset.name} ${offset}`,
});
