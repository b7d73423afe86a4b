// Offset lists: `count` is the total of all pages. A page holds no more items than count leaves
// from its offset, and a first page holds min(limit, count) items.

import { offsetCountIsTotal as check } from "../../checks/offset-count-is-total.js";
import { fromCheck, rule } from "./types.js";

export const offsetCountIsTotal = rule({
  ...fromCheck(check),
  judges: "every page: no more items than count leaves from its offset; a first page holds min(limit, count)",
  on: "offsetPage",
  judge: ({ offset, limit, count, items, answer, list }) => {
    const countField = list.pagination.countField;
    const left = Math.max(0, count - offset);
    if (items > left)
      return `${answer.url} holds ${items} items but ${countField} ${count} leaves ${left} from ${list.offset.name} ${offset}`;
    if (offset === 0 && limit !== undefined && items < Math.min(limit, count))
      return `${answer.url} holds ${items} items; ${countField} ${count} with ${list.limit.name}=${limit} means ${Math.min(limit, count)} on the first page`;
    return null;
  },
});
