// Every page list, driven for every rule that judges one (pagination.page.*): pages 1 and 2 and
// the links between them, a walk that follows next to its end, the last page, pages of a few
// sizes, a page without limit, every filter the list documents walked in small pages by page
// number, every ordering by an item field walked the same way.

import type { OperationModel } from "@platform-api/spec";
import type { Query, Request } from "../../facts/api.js";
import { operationNeeds } from "../../facts/operations.js";
import { type PageList, pageList } from "../../facts/pages.js";
import type { Http } from "../../http/http.js";
import { readPage, walkPages } from "../page-walk.js";
import { requestFor } from "../run-values.js";
import { selectionCalls, walkSelections } from "./list-selection.js";
import type { Driver } from "./types.js";

/** The page size of the neighbours' pages, of the walk that follows next, and of the last page's. */
const NEIGHBOURS = 5;
const FOLLOWED = 10;
const LAST = 7;
const SIZES = [
  [3, 1],
  [7, 2],
] as const;
/** Pages a walk reads at most. */
const WALK_PAGES = 8;

/**
 * The list with `query`, by page number in pages of about a quarter of its count (by page number,
 * not by next: only the link rules depend on the links being right).
 */
async function walkSmall(http: Http, list: PageList, request: Request, query: Query = {}) {
  const read = (q: Query) => readPage(http, list, request, { query: { ...query, ...q } });
  const first = await read({ [list.limit.name]: 1 });
  const count = first.countSent ? first.count : undefined;
  const limit = Math.min(
    list.limit.maximum ?? Number.POSITIVE_INFINITY,
    Math.max(1, Math.ceil((count ?? 20) / 4)),
  );
  const items: unknown[] = [];
  for (let page = 1; page <= WALK_PAGES; page++) {
    const got = await read({ [list.page.name]: page, [list.limit.name]: limit });
    items.push(...got.items);
    if (got.items.length < limit || (count !== undefined && page * limit >= count)) break;
  }
  return items;
}

export const pageListDriver: Driver = {
  id: "page-list",
  feeds: ["pagination.page."],
  appliesTo: "every x-pagination list of style page",
  applies: (operation) => operation.pagination?.style === "page",
  needs: (operation) => operationNeeds(operation),
  calls: (operation: OperationModel) => {
    const { page, limit, pagination } = pageList(operation);
    return [
      `GET ?${page.name}=1&${limit.name}=${NEIGHBOURS}`,
      `GET ?${page.name}=2&${limit.name}=${NEIGHBOURS}`,
      `GET <page 1's ${pagination.nextField}>`,
      `GET <page 2's ${pagination.previousField}>`,
      `GET ?${limit.name}=${FOLLOWED}, then each ${pagination.nextField}`,
      `GET ?${page.name}=<last>&${limit.name}=${LAST}`,
      ...SIZES.map(([size, number]) => `GET ?${limit.name}=${size}&${page.name}=${number}`),
      `GET (no ${limit.name})`,
      ...selectionCalls(operation),
    ];
  },
  async drive(api, operation) {
    const { http } = api;
    const list = pageList(operation);
    const { page, limit } = list;
    const request = requestFor(api, operation);
    const read = (from: Parameters<typeof readPage>[3]) => readPage(http, list, request, from);
    const page1 = await read({ query: { [page.name]: 1, [limit.name]: NEIGHBOURS } });
    await read({ query: { [page.name]: 2, [limit.name]: NEIGHBOURS } });
    if (page1.next !== null) {
      const page2 = await read({ link: page1.next });
      if (page2.previous !== null) await read({ link: page2.previous });
    }
    const { items } = await walkPages(http, list, request, { [limit.name]: FOLLOWED });
    const sized = await read({ query: { [limit.name]: LAST } });
    if (sized.countSent && sized.count > LAST)
      await read({ query: { [page.name]: Math.ceil(sized.count / LAST), [limit.name]: LAST } });
    for (const [size, number] of SIZES) await read({ query: { [limit.name]: size, [page.name]: number } });
    await read({ query: {} });
    await walkSelections(operation, items, (query) => walkSmall(http, list, request, query));
  },
};
