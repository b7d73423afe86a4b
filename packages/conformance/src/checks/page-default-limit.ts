// Page lists: without `limit`, a page holds up to the default the spec documents (a `should`).

import { check } from "../check.js";
import { operationNeeds, requestFor } from "../operations.js";
import { countLeftOut, pageList, readPage } from "../pages.js";
import type { Check } from "./types.js";

export const pageDefaultLimit: Check = {
  id: "pagination.page.default-limit",
  severity: "should",
  appliesTo: "every x-pagination list of style page",
  applies: (operation) => operation.pagination?.style === "page",
  title: (operation) => {
    const { limit } = pageList(operation);
    return `${operation.operationId}: without ${limit.name} a page holds up to ${limit.default ?? "the default number of"} items (the documented default)`;
  },
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => [`GET (no ${pageList(operation).limit.name})`],
  async run(api, operation) {
    const list = pageList(operation);
    const documented = list.limit.default;
    if (typeof documented !== "number") return api.skip(`the spec documents no default ${list.limit.name}`);
    const page = await readPage(api.http, list, requestFor(api, operation), { query: {} });
    if (!page.countSent) return api.skip(countLeftOut(list));
    const expected = Math.min(documented, page.count);
    check(
      page.items.length === expected,
      `without ${list.limit.name} the page holds ${page.items.length} items; expected ${expected}`,
    );
  },
};
