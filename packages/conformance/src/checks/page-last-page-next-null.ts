// Page lists: the last page's `next` is null, and page 1's `previous` is null.

import { check } from "../check.js";
import { operationNeeds, requestFor } from "../operations.js";
import { countLeftOut, pageList, readPage } from "../pages.js";
import type { Check } from "./types.js";

const LIMIT = 7;

export const pageLastPageNextNull: Check = {
  id: "pagination.page.last-page-next-null",
  severity: "must",
  appliesTo: "every x-pagination list of style page",
  applies: (operation) => operation.pagination?.style === "page",
  title: (operation) => {
    const { nextField, previousField } = pageList(operation).pagination;
    return `${operation.operationId}: the last page's ${nextField} is null, and page 1's ${previousField} is null`;
  },
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => {
    const { page, limit } = pageList(operation);
    return [`GET ?${limit.name}=${LIMIT}`, `GET ?${page.name}=<last>&${limit.name}=${LIMIT}`];
  },
  async run(api, operation) {
    const list = pageList(operation);
    const { page, limit } = list;
    const { nextField, previousField } = list.pagination;
    const request = requestFor(api, operation);
    const first = await readPage(api.http, list, request, { query: { [limit.name]: LIMIT } });
    if (!first.countSent) return api.skip(countLeftOut(list));
    if (first.count === 0) return api.skip("the list is empty");
    check(first.previous === null, `page 1 has ${previousField} ${JSON.stringify(first.previous)}`);
    const lastNumber = Math.ceil(first.count / LIMIT);
    const last = await readPage(api.http, list, request, {
      query: { [page.name]: lastNumber, [limit.name]: LIMIT },
    });
    check(last.items.length > 0, `page ${lastNumber} (the last of ${first.count} by ${LIMIT}) is empty`);
    check(
      last.next === null,
      `the last page (${lastNumber}) has ${nextField} ${JSON.stringify(last.next)}; expected null`,
    );
  },
};
