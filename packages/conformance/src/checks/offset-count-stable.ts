// Offset lists: `count` stays the same on every page of a walk.

import { check } from "../check.js";
import { walkOffset } from "../lists.js";
import { offsetList, readListPage, walkLimit } from "../offset.js";
import { operationNeeds, requestFor } from "../operations.js";
import type { Check } from "./types.js";

export const offsetCountStable: Check = {
  id: "pagination.offset.count-stable",
  severity: "must",
  appliesTo: "every x-pagination list of style offset",
  applies: (operation) => operation.pagination?.style === "offset",
  title: (operation) =>
    `${operation.operationId}: ${offsetList(operation).pagination.countField} stays the same on every page`,
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => {
    const { limit, offset, pagination } = offsetList(operation);
    return [`GET ?${limit.name}=⌈${pagination.countField}/4⌉&${offset.name}=0,…`];
  },
  async run(api, operation) {
    const list = offsetList(operation);
    const request = requestFor(api, operation);
    const first = await readListPage(api.http, list, request, { [list.limit.name]: 1 });
    const { pages } = await walkOffset(api.http, list, request, walkLimit(list, first.count), 8);
    const counts = [...new Set(pages.map((p) => p.count))];
    check(
      counts.length === 1,
      `${list.pagination.countField} changed between pages: ${pages.map((p) => `${list.offset.name} ${p.offset}: ${p.count}`).join(", ")}`,
    );
  },
};
