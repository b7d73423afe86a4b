// Every offset list, driven for every rule that judges one (pagination.offset.*): a walk in small
// pages, the largest page, a page without limit, pages of a few sizes, limits and offsets just
// outside the spec's bounds, every filter the list documents walked in small pages, every ordering
// by an item field walked the same way.

import type { OperationModel } from "@platform-api/spec";
import type { Query, Request } from "../../facts/api.js";
import { largestPage, type OffsetList, offsetList, pageQuery } from "../../facts/offset.js";
import { operationNeeds } from "../../facts/operations.js";
import type { Http } from "../../http/http.js";
import { queryText, readListPage, walkLimit, walkOffset } from "../lists.js";
import { requestFor } from "../run-values.js";
import { selectionCalls, walkSelections } from "./list-selection.js";
import type { Driver } from "./types.js";

/** Pages of a few sizes from a few offsets. */
const SIZES = [
  [1, 0],
  [2, 0],
  [7, 1],
] as const;
/** Pages a walk reads at most: small pages over a long list stop here. */
const WALK_PAGES = 8;

/** Just outside the bounds the spec gives limit and offset (as many as it gives). */
function outside({ limit, offset }: OffsetList): Record<string, number>[] {
  return [
    ...(limit.minimum === undefined ? [] : [{ [limit.name]: limit.minimum - 1 }]),
    ...(limit.maximum === undefined ? [] : [{ [limit.name]: limit.maximum + 1 }]),
    { [limit.name]: -1 },
    ...(offset.minimum === undefined ? [] : [{ [offset.name]: offset.minimum - 1 }]),
  ];
}

/** The list with `query`, from offset 0 in pages of about a quarter of its count. */
async function walkSmall(http: Http, list: OffsetList, request: Request, query: Query = {}) {
  const asked = { ...request, query: { ...request.query, ...query } };
  const first = await readListPage(http, list, asked, { ...query, [list.limit.name]: 1 });
  return walkOffset(http, list, asked, walkLimit(list, first.count), WALK_PAGES);
}

export const offsetListDriver: Driver = {
  id: "offset-list",
  feeds: ["pagination.offset."],
  appliesTo: "every x-pagination list of style offset",
  applies: (operation) => operation.pagination?.style === "offset",
  needs: (operation) => operationNeeds(operation),
  calls: (operation: OperationModel) => {
    const list = offsetList(operation);
    const { limit, offset, pagination } = list;
    return [
      `GET ?${limit.name}=1`,
      `GET ?${limit.name}=⌈${pagination.countField}/4⌉&${offset.name}=0, ⌈${pagination.countField}/4⌉, …`,
      `GET ?${queryText(pageQuery(list, largestPage(list), 0))}`,
      `GET (no ${limit.name})`,
      ...SIZES.map(([size, from]) => `GET ?${queryText(pageQuery(list, size, from))}`),
      ...outside(list).map((query) => `GET ?${queryText(query)}`),
      ...selectionCalls(operation),
    ];
  },
  async drive(api, operation) {
    const { http } = api;
    const list = offsetList(operation);
    const request = requestFor(api, operation);
    const { items } = await walkSmall(http, list, request);
    const largest = largestPage(list);
    if (largest !== undefined) await http.send({ ...request, query: pageQuery(list, largest, 0) });
    await http.send(request);
    for (const [size, from] of SIZES) await http.send({ ...request, query: pageQuery(list, size, from) });
    for (const query of outside(list)) await http.send({ ...request, query });
    await walkSelections(operation, items, (query) => walkSmall(http, list, request, query));
  },
};
