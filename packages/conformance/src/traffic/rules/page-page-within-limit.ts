// Page lists: no page is longer than the limit asked (or, without one, the spec's default).

import { pagePageWithinLimit as check } from "../../checks/page-page-within-limit.js";
import { fromCheck, rule } from "./types.js";
import { withinLimit } from "./within-limit.js";

export const pagePageWithinLimit = rule({
  ...fromCheck(check),
  judges: "every page of a page list: no more items than the limit asked, else the spec's default",
  on: "pagePage",
  judge: withinLimit,
});
