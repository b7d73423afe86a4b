// Offset lists: `count` is the total of all pages, whatever the limit. A page holds no more items
// than count leaves from its offset, a first page holds min(limit, count), and the same list with
// the same filters gives the same count with another limit.

import { offsetLists } from "./lists.js";
import { rule } from "./types.js";

export const offsetCountIsTotal = rule({
  ...offsetLists,
  id: "pagination.offset.count-is-total",
  severity: "must",
  refuses: false,
  perOperation: true,
  judges: "every page: no more items than count leaves from its offset; a first page holds min(limit, count)",
  on: "offsetPage",
  title: (operation) => `${operation.operationId}: count is the total of all pages, whatever the limit`,
  judge: ({ offset, limit, count, items, answer, list }) => {
    const countField = list.pagination.countField;
    const left = Math.max(0, count - offset);
    if (items > left)
      return `${answer.url} holds ${items} items but ${countField} ${count} leaves ${left} from ${list.offset.name} ${offset}`;
    // A limit beyond the maximum may be clamped to it; one below the minimum asks for no page.
    if (limit === undefined || limit < (list.limit.minimum ?? 1)) return null;
    const full = Math.min(limit, list.limit.maximum ?? Number.POSITIVE_INFINITY, left);
    if (items < full)
      return `${answer.url} holds ${items} items; ${countField} ${count} with ${list.limit.name}=${limit} means ${full} from ${list.offset.name} ${offset}`;
    return null;
  },
});
