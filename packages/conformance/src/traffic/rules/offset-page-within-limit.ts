// Offset lists: no page is longer than the limit asked (or, without one, the spec's default).

import { offsetPageWithinLimit as check } from "../../checks/offset-page-within-limit.js";
import { fromCheck, rule } from "./types.js";

export const offsetPageWithinLimit = rule({
  ...fromCheck(check),
  judges: "every page of an offset list: no more items than the limit asked, else the spec's default",
  on: "offsetPage",
  judge: ({ limit, items, answer, list }) =>
    limit === undefined
      ? undefined
      : items <= limit
        ? null
        : `${answer.url} returned ${items} items, more than ${list.limit.name}=${limit}`,
});
