// Page lists: `next` leads to the following page and `previous` back to the one before; the first
// page's `previous` is null.

import { check } from "../check.js";
import { identity } from "../lists.js";
import { operationNeeds, requestFor } from "../operations.js";
import { countLeftOut, pageList, readPage } from "../pages.js";
import type { Check } from "./types.js";

const LIMIT = 5;
const same = (a: unknown[], b: unknown[]) =>
  JSON.stringify(a.map(identity)) === JSON.stringify(b.map(identity));

export const pageNextPreviousNeighbours: Check = {
  id: "pagination.page.next-previous-neighbours",
  severity: "must",
  appliesTo: "every x-pagination list of style page",
  applies: (operation) => operation.pagination?.style === "page",
  title: (operation) => {
    const { nextField, previousField } = pageList(operation).pagination;
    return `${operation.operationId}: ${nextField} leads to the following page and ${previousField} back to the one before`;
  },
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) => {
    const { page, limit, pagination } = pageList(operation);
    return [
      `GET ?${page.name}=1&${limit.name}=${LIMIT}`,
      `GET ?${page.name}=2&${limit.name}=${LIMIT}`,
      `GET <page 1's ${pagination.nextField}>`,
      `GET <page 2's ${pagination.previousField}>`,
    ];
  },
  async run(api, operation) {
    const list = pageList(operation);
    const { page, limit } = list;
    const { nextField, previousField } = list.pagination;
    const request = requestFor(api, operation);
    const read = (from: Parameters<typeof readPage>[3]) => readPage(api.http, list, request, from);
    const page1 = await read({ query: { [page.name]: 1, [limit.name]: LIMIT } });
    if (!page1.countSent && page1.next === null) return api.skip(countLeftOut(list));
    if (page1.countSent && page1.count <= LIMIT) return api.skip(`only ${page1.count} items: a single page`);
    const page2 = await read({ query: { [page.name]: 2, [limit.name]: LIMIT } });
    check(page1.next !== null, `page 1 of ${page1.count} items by ${LIMIT} has ${nextField} null`);
    check(
      page1.previous === null,
      `page 1 has ${previousField} ${JSON.stringify(page1.previous)}; expected null`,
    );
    const viaNext = await read({ link: page1.next });
    check(
      same(viaNext.items, page2.items),
      `page 1's ${nextField} (${page1.next}) gave ${viaNext.items.map(identity).join(",")}; ${page.name}=2 gives ${page2.items.map(identity).join(",")}`,
    );
    check(page2.previous !== null, `page 2 has ${previousField} null`);
    const viaPrevious = await read({ link: page2.previous });
    check(
      same(viaPrevious.items, page1.items),
      `page 2's ${previousField} (${page2.previous}) does not lead back to page 1`,
    );
  },
};
