// Page lists: `count` is the total: the same on every page, and following `next` to its end visits
// count items, each once.

import { check } from "../check.js";
import { identity } from "../lists.js";
import { operationNeeds, requestFor } from "../operations.js";
import { countLeftOut, pageList, walkPages } from "../pages.js";
import type { Check } from "./types.js";

const LIMIT = 10;

export const pageCountIsTotal: Check = {
  id: "pagination.page.count-is-total",
  severity: "must",
  appliesTo: "every x-pagination list of style page",
  applies: (operation) => operation.pagination?.style === "page",
  title: (operation) => {
    const { countField, nextField } = pageList(operation).pagination;
    return `${operation.operationId}: ${countField} is the total: the same on every page, and following ${nextField} visits ${countField} items, each once`;
  },
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => {
    const { limit, pagination } = pageList(operation);
    return [`GET ?${limit.name}=${LIMIT}, then each ${pagination.nextField}`];
  },
  async run(api, operation) {
    const list = pageList(operation);
    const { countField, nextField } = list.pagination;
    const request = requestFor(api, operation);
    const { pages, items, complete } = await walkPages(api.http, list, request, { [list.limit.name]: LIMIT });
    check(complete, `following ${nextField} did not end within 40 pages`);
    if (!pages.some((p) => p.countSent)) return api.skip(countLeftOut(list));
    const counts = [...new Set(pages.map((p) => p.count))];
    check(
      counts.length === 1,
      `${countField} changed between pages: ${pages.map((p) => p.count).join(", ")}`,
    );
    const unique = new Set(items.map(identity));
    check(unique.size === items.length, `${items.length - unique.size} items appeared on more than one page`);
    check(
      items.length === counts[0],
      `the pages held ${items.length} items; ${countField} says ${counts[0]}`,
    );
  },
};
