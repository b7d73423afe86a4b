// Offset lists: no page is longer than the limit asked (or, without one, the spec's default).

import { offsetPageWithinLimit as check } from "../../checks/offset-page-within-limit.js";
import { fromCheck, rule } from "./types.js";
import { withinLimit } from "./within-limit.js";

export const offsetPageWithinLimit = rule({
  ...fromCheck(check),
  judges: "every page of an offset list: no more items than the limit asked, else the spec's default",
  on: "offsetPage",
  judge: withinLimit,
});
