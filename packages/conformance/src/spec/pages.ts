// Page lists as the spec's `x-pagination` (style page) describes them: the names of their page,
// limit, count, items and links, one page read from an answer, and a walk that follows `next`.
// The page-list rules and driver (src/rules/page-*.ts, src/drivers/page-list.ts) read every page
// list of the spec through here.

import {
  type OperationModel,
  type PagePagination,
  type ParameterModel,
  paginatedOperations,
  requireParameter,
} from "@platform-api/spec";
import { check, expectStatus } from "../active/check.js";
import type { Http } from "../http/http.js";
import { fieldOf } from "../shared/json.js";
import type { Query, Request } from "./api.js";
import { schemaAt, specModel, successSchemaPointer } from "./spec.js";

export interface PageList {
  operation: OperationModel;
  pagination: PagePagination;
  page: ParameterModel;
  limit: ParameterModel;
  /** The count the answer's schema gives by default (AiTaskList: 0), for an answer without one. */
  countDefault: number | undefined;
}

export function pageList(operation: OperationModel): PageList {
  const pagination = operation.pagination;
  if (pagination?.style !== "page")
    throw new Error(`${operation.operationId} is not a page list (its x-pagination says otherwise).`);
  const countDefault = schemaAt(
    successSchemaPointer(operation),
    "properties",
    pagination.countField,
  )?.default;
  return {
    operation,
    pagination,
    page: requireParameter(operation, pagination.pageParam, "query"),
    limit: requireParameter(operation, pagination.limitParam, "query"),
    countDefault: typeof countDefault === "number" ? countDefault : undefined,
  };
}

/** Every page list of the spec (`x-pagination` style page). */
export const pageLists = (): PageList[] => paginatedOperations(specModel(), "page").map(pageList);

export interface Page {
  url: string;
  /** The answer's count, or the schema's default when it left it out (see `countSent`). */
  count: number;
  /** Whether the answer carried its count (the seed gives the AI task list's a default: it may not). */
  countSent: boolean;
  next: string | null;
  previous: string | null;
  items: unknown[];
}

/** `next` is "the query-string part"; a full URL or a leading "?" is read too. */
export function linkQuery(link: string): string {
  const q = link.includes("?") ? link.slice(link.indexOf("?") + 1) : link;
  return q.replace(/^\?/, "");
}

/** One page of a list, from a query or a `next`/`previous` link; a deviation when it is not one. */
export async function readPage(
  http: Http,
  list: PageList,
  request: Request,
  from: { query?: Query; link?: string },
): Promise<Page> {
  const answer = await http.send(
    from.link !== undefined
      ? { ...request, query: undefined, rawQuery: linkQuery(from.link) }
      : { ...request, query: { ...request.query, ...from.query } },
  );
  expectStatus(answer, 200);
  const { countField, itemsField, nextField, previousField } = list.pagination;
  const sent = fieldOf(answer.body, countField);
  const count = sent ?? list.countDefault;
  const items = fieldOf(answer.body, itemsField);
  check(
    typeof count === "number" && Number.isInteger(count) && Array.isArray(items),
    `${answer.url}: no integer ${countField} and ${itemsField} array`,
  );
  const link = (field: string) => {
    const value = fieldOf(answer.body, field);
    return typeof value === "string" ? value : null;
  };
  return {
    url: answer.url,
    count,
    countSent: sent !== undefined,
    next: link(nextField),
    previous: link(previousField),
    items,
  };
}

/** Follows `next` from a first query until it is null; bounded. */
export async function walkPages(http: Http, list: PageList, request: Request, query: Query, maxPages = 40) {
  const pages = [await readPage(http, list, request, { query })];
  while (pages.length < maxPages) {
    const last = pages[pages.length - 1] as Page;
    if (last.next === null) return { pages, items: pages.flatMap((p) => p.items), complete: true };
    pages.push(await readPage(http, list, request, { link: last.next }));
  }
  return { pages, items: pages.flatMap((p) => p.items), complete: false };
}

/** The skip reason of a check that reads the total, for a list whose answers leave `count` out. */
export const countLeftOut = (list: PageList) =>
  `the answers leave out ${list.pagination.countField} (the seed gives it a default of ${list.countDefault}, so it may be absent): nothing that needs the total is checked here`;
