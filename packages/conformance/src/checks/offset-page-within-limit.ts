// Offset lists: no page is longer than `limit`.

import { check } from "../check.js";
import { offsetList, pageQuery, queryText, readListPage } from "../offset.js";
import { operationNeeds, requestFor } from "../operations.js";
import type { Check } from "./types.js";

const SIZES = [
  [1, 0],
  [2, 0],
  [7, 1],
] as const;

export const offsetPageWithinLimit: Check = {
  id: "pagination.offset.page-within-limit",
  severity: "must",
  appliesTo: "every x-pagination list of style offset",
  applies: (operation) => operation.pagination?.style === "offset",
  title: (operation) =>
    `${operation.operationId}: no page is longer than ${offsetList(operation).limit.name}`,
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => {
    const list = offsetList(operation);
    return SIZES.map(([size, from]) => `GET ?${queryText(pageQuery(list, size, from))}`);
  },
  async run(api, operation) {
    const list = offsetList(operation);
    const request = requestFor(api, operation);
    for (const [size, from] of SIZES) {
      const got = await readListPage(api.http, list, request, pageQuery(list, size, from));
      check(
        got.items.length <= size,
        `${got.answer.url} returned ${got.items.length} items, more than ${list.limit.name}=${size}`,
      );
    }
  },
};
