// Offset lists as the spec's `x-pagination` describes them: which operations they are, the names
// of their limit, offset, count and items, the limit's bounds and default, and one page read from
// an answer. The discovery (src/prepare.ts) and the pagination scenarios both read them here.

import {
  type OffsetPagination,
  type OperationModel,
  type ParameterModel,
  paginatedOperations,
  requireParameter,
} from "@platform-api/spec";
import { check, expectStatus } from "../active/check.js";
import type { Answer, Http } from "../http/http.js";
import { fieldOf } from "../shared/json.js";
import type { Request } from "./api.js";
import { specModel } from "./spec.js";

export interface OffsetList {
  operation: OperationModel;
  pagination: OffsetPagination;
  limit: ParameterModel;
  offset: ParameterModel;
}

export function offsetList(operation: OperationModel): OffsetList {
  const pagination = operation.pagination;
  if (pagination?.style !== "offset")
    throw new Error(`${operation.operationId} is not an offset list (its x-pagination says otherwise).`);
  return {
    operation,
    pagination,
    limit: requireParameter(operation, pagination.limitParam, "query"),
    offset: requireParameter(operation, pagination.offsetParam, "query"),
  };
}

/** Every offset list of the spec (`x-pagination` style offset). */
export const offsetLists = (): OffsetList[] => paginatedOperations(specModel(), "offset").map(offsetList);

/**
 * The largest page the spec allows: the limit's maximum, else its default (a list without either
 * is read at the server's own page size).
 */
export const largestPage = (list: OffsetList): number | undefined =>
  numberOr(list.limit.maximum, list.limit.default);

export interface OffsetPage {
  offset: number;
  count: number;
  items: unknown[];
}

/** The count and items of an answer's body, or undefined when the body has not both. */
export function readOffsetPage(list: OffsetList, body: unknown, offset: number): OffsetPage | undefined {
  const count = fieldOf(body, list.pagination.countField);
  const items = fieldOf(body, list.pagination.itemsField);
  if (typeof count !== "number" || !Number.isInteger(count) || !Array.isArray(items)) return undefined;
  return { offset, count, items };
}

/** The query of one page: `limit` and `offset` under the names the spec gives them. */
export function pageQuery(list: OffsetList, limit: number | undefined, offset: number) {
  return {
    ...(limit === undefined ? {} : { [list.limit.name]: limit }),
    [list.offset.name]: offset,
  };
}

export interface OffsetWalk {
  pages: OffsetPage[];
  items: unknown[];
  /** Whether the walk reached offset >= count within its pages. */
  complete: boolean;
}

/**
 * Reads a list the way the seed says: increase offset by limit until it is at least count. Without
 * a limit, by the length of each page. `refused` is told of an answer that is not a 200 page and
 * must throw (a deviation in a scenario, a usage error before the run).
 */
export async function walkOffsetList(
  list: OffsetList,
  fetch: (query: Record<string, number>) => Promise<Answer>,
  {
    limit,
    maxPages,
    refused,
  }: { limit: number | undefined; maxPages: number; refused: (answer: Answer) => never },
): Promise<OffsetWalk> {
  const pages: OffsetPage[] = [];
  const done = (complete: boolean) => ({ pages, items: pages.flatMap((p) => p.items), complete });
  for (let offset = 0; pages.length < maxPages; ) {
    const answer = await fetch(pageQuery(list, limit, offset));
    const page = answer.status === 200 ? readOffsetPage(list, answer.body, offset) : undefined;
    if (!page) return refused(answer);
    pages.push(page);
    const step = limit ?? page.items.length;
    if (step === 0) return done(offset >= page.count);
    offset += step;
    if (offset >= page.count) return done(true);
  }
  return done(false);
}

function numberOr(...values: unknown[]): number | undefined {
  return values.find((v): v is number => typeof v === "number");
}

/** One page of a list, its count and items read by the spec's field names; a deviation otherwise. */
export async function readListPage(http: Http, list: OffsetList, request: Request, query: Request["query"]) {
  const answer = await http.send({ ...request, query });
  expectStatus(answer, 200);
  const { countField, itemsField } = list.pagination;
  const read = readOffsetPage(list, answer.body, 0);
  check(read, `${answer.url}: no integer ${countField} and ${itemsField} array`);
  return { answer, count: read.count, items: read.items };
}

/** A page size that needs a few pages, never more than 8, never above the spec's maximum. */
export const walkLimit = (list: OffsetList, count: number) =>
  Math.min(list.limit.maximum ?? Number.POSITIVE_INFINITY, Math.max(1, Math.ceil(count / 4)));

/** A query as it reads in a URL ("limit=1&offset=0"), for titles and the dry run. */
export const queryText = (values: Record<string, number | undefined>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
