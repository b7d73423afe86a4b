// Offset lists: without `limit`, a page holds up to the default the spec documents (a `should`:
// the documentation shows the default, it does not state it as a rule).

import { check } from "../check.js";
import { offsetList, readListPage } from "../offset.js";
import { operationNeeds, requestFor } from "../operations.js";
import type { Check } from "./types.js";

export const offsetDefaultLimit: Check = {
  id: "pagination.offset.default-limit",
  severity: "should",
  appliesTo: "every x-pagination list of style offset",
  applies: (operation) => operation.pagination?.style === "offset",
  title: (operation) => {
    const { limit } = offsetList(operation);
    return `${operation.operationId}: without ${limit.name} a page holds up to ${limit.default ?? "the default number of"} items (the documented default)`;
  },
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => [`GET (no ${offsetList(operation).limit.name})`],
  async run(api, operation) {
    const list = offsetList(operation);
    const { limit, pagination } = list;
    const request = requestFor(api, operation);
    const documented = limit.default;
    if (typeof documented !== "number") return api.skip(`the spec documents no default ${limit.name}`);
    const got = await readListPage(api.http, list, request, undefined);
    const expected = Math.min(got.count, documented);
    check(
      got.items.length === expected,
      `without ${limit.name} the page holds ${got.items.length} items; ${pagination.countField} is ${got.count}, so the default ${documented} gives ${expected}`,
    );
  },
};
