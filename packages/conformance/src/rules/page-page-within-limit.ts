// Page lists: no page is longer than the limit asked (or, without one, the spec's default).

import { pageLists } from "./lists.js";
import { rule } from "./types.js";
import { withinLimit } from "./within-limit.js";

export const pagePageWithinLimit = rule({
  ...pageLists,
  id: "pagination.page.page-within-limit",
  severity: "must",
  refuses: false,
  perOperation: true,
  title: (operation) => `${operation.operationId}: no page is longer than limit`,
  judges: "every page of a page list: no more items than the limit asked, else the spec's default",
  on: "pagePage",
  judge: withinLimit,
});
