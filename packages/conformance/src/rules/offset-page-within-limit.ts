// Offset lists: no page is longer than the limit asked (or, without one, the spec's default).

import { offsetLists } from "./lists.js";
import { rule } from "./types.js";
import { withinLimit } from "./within-limit.js";

export const offsetPageWithinLimit = rule({
  ...offsetLists,
  id: "pagination.offset.page-within-limit",
  severity: "must",
  refuses: false,
  perOperation: true,
  judges: "every page of an offset list: no more items than the limit asked, else the spec's default",
  on: "offsetPage",
  title: (operation) => `${operation.operationId}: no page is longer than limit`,
  judge: withinLimit,
});
