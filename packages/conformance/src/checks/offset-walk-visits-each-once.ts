// Offset lists: walking by `limit` until `offset` >= `count` (the seed's rule) visits every item
// exactly once.

import { check } from "../check.js";
import { identity, walkOffset } from "../lists.js";
import { offsetList, readListPage, walkLimit } from "../offset.js";
import { operationNeeds, requestFor } from "../operations.js";
import type { Check } from "./types.js";

export const offsetWalkVisitsEachOnce: Check = {
  id: "pagination.offset.walk-visits-each-once",
  severity: "must",
  appliesTo: "every x-pagination list of style offset",
  applies: (operation) => operation.pagination?.style === "offset",
  title: (operation) => {
    const { limit, offset, pagination } = offsetList(operation);
    return `${operation.operationId}: walking by ${limit.name} until ${offset.name} >= ${pagination.countField} visits every item exactly once`;
  },
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => {
    const { limit, offset, pagination } = offsetList(operation);
    const count = pagination.countField;
    return [`GET ?${limit.name}=1`, `GET ?${limit.name}=⌈${count}/4⌉&${offset.name}=0, ⌈${count}/4⌉, …`];
  },
  async run(api, operation) {
    const list = offsetList(operation);
    const { limit, offset, pagination } = list;
    const request = requestFor(api, operation);
    const first = await readListPage(api.http, list, request, { [limit.name]: 1 });
    const count = first.count;
    const size = walkLimit(list, count);
    const { items, complete } = await walkOffset(api.http, list, request, size, 8);
    check(
      complete,
      `the walk with ${limit.name}=${size} did not reach ${offset.name} >= ${pagination.countField} (${count}) in 8 pages`,
    );
    const seen = new Map<string, number>();
    for (const item of items) seen.set(identity(item), (seen.get(identity(item)) ?? 0) + 1);
    const repeated = [...seen].filter(([, n]) => n > 1).map(([key]) => key);
    check(repeated.length === 0, `items seen more than once: ${repeated.slice(0, 5).join(", ")}`);
    check(
      items.length === count,
      `the walk with ${limit.name}=${size} visited ${items.length} items; ${pagination.countField} says ${count}`,
    );
  },
};
