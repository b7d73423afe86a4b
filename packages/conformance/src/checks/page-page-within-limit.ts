// Page lists: no page is longer than `limit`.

import { check } from "../check.js";
import { operationNeeds, requestFor } from "../operations.js";
import { pageList, readPage } from "../pages.js";
import type { Check } from "./types.js";

const SIZES = [
  [3, 1],
  [7, 2],
] as const;

export const pagePageWithinLimit: Check = {
  id: "pagination.page.page-within-limit",
  severity: "must",
  appliesTo: "every x-pagination list of style page",
  applies: (operation) => operation.pagination?.style === "page",
  title: (operation) => `${operation.operationId}: no page is longer than ${pageList(operation).limit.name}`,
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => {
    const { page, limit } = pageList(operation);
    return SIZES.map(([size, number]) => `GET ?${limit.name}=${size}&${page.name}=${number}`);
  },
  async run(api, operation) {
    const list = pageList(operation);
    const request = requestFor(api, operation);
    for (const [size, number] of SIZES) {
      const got = await readPage(api.http, list, request, {
        query: { [list.limit.name]: size, [list.page.name]: number },
      });
      check(got.items.length <= size, `${got.url} returned ${got.items.length} items, more than ${size}`);
    }
  },
};
