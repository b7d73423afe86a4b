// Offset lists: `count` is the total of all pages, whatever the limit (a page of the largest size
// the spec allows holds min(count, that size) items, and a page of one item says the same count).

import { check } from "../check.js";
import { largestPage, offsetList, pageQuery, queryText, readListPage } from "../offset.js";
import { operationNeeds, requestFor } from "../operations.js";
import type { Check } from "./types.js";

export const offsetCountIsTotal: Check = {
  id: "pagination.offset.count-is-total",
  severity: "must",
  appliesTo: "every x-pagination list of style offset",
  applies: (operation) => operation.pagination?.style === "offset",
  title: (operation) => {
    const list = offsetList(operation);
    return `${operation.operationId}: ${list.pagination.countField} is the total of all pages, whatever the ${list.limit.name}`;
  },
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => {
    const list = offsetList(operation);
    return [
      `GET ?${queryText(pageQuery(list, largestPage(list), 0))}`,
      `GET ?${queryText(pageQuery(list, 1, 0))}`,
    ];
  },
  async run(api, operation) {
    const list = offsetList(operation);
    const { countField } = list.pagination;
    const { limit } = list;
    const request = requestFor(api, operation);
    const largest = largestPage(list);
    if (largest === undefined) return api.skip(`the spec gives ${limit.name} no maximum or default`);
    const big = await readListPage(api.http, list, request, pageQuery(list, largest, 0));
    const one = await readListPage(api.http, list, request, pageQuery(list, 1, 0));
    const total = big.count;
    check(total >= 0, `${countField} ${total} is not an integer >= 0`);
    check(
      one.count === total,
      `${countField} is ${total} with ${limit.name}=${largest} but ${one.count} with ${limit.name}=1`,
    );
    const expected = Math.min(total, largest);
    check(
      big.items.length === expected,
      `with ${limit.name}=${largest} the first page holds ${big.items.length} items but ${countField} says ${total} in all (expected ${expected} on the page)`,
    );
  },
};
