import {
  paginatedOperations,
  parameterOf,
  type RuntimeOperation,
  type RuntimePagination,
} from "@platform-api/spec/model";
import { PaginationError } from "./errors.js";
import { operationFacts, SPEC } from "./operations.js";
import type { WithResponse } from "./results.js";

type Query = Record<string, unknown>;
type OffsetPagination = Extract<RuntimePagination, { style: "offset" }>;
type PagePagination = Extract<RuntimePagination, { style: "page" }>;
/** Fetches the page of `query`: its body, with its answer attached (`withResponse`). */
export type PageFetcher = (query: Query) => Promise<unknown>;

export interface PaginateOptions {
  /** how many later pages of an offset list may be in flight at once, once `count` is known; default 4 */
  concurrency?: number;
  /** cancels the walk (every page request and wait) */
  signal?: AbortSignal;
}

/** `for await (const item of paginator)` walks items; `.pages()` walks whole pages. */
export interface Paginator<Item, Page> extends AsyncIterable<Item> {
  /** every page's body, in order, with the answer it came in as `page.response` (status, headers) */
  pages(): AsyncIterable<WithResponse<Page>>;
  /** every item, in order */
  toArray(): Promise<Item[]>;
}

/** A key that identifies an item, to detect one the server sends twice. */
const identity = (item: unknown): string => {
  const record = item as Record<string, unknown> | null;
  const id = record?.id ?? record?.task_id;
  return id !== undefined ? `id:${String(id)}` : `json:${JSON.stringify(item)}`;
};

/**
 * The page size of a walk the caller gave no `limit` for: the largest the spec allows (fewest
 * requests), else the spec's default. Every offset list of the compiled-in model states one of
 * them (a test, "every offset list states a page size", checks it).
 */
const pageSize = (operation: RuntimeOperation, limitParam: string): number => {
  const limit = parameterOf(operation, limitParam, "query");
  return (limit?.maximum ?? limit?.default) as number;
};

export function createPaginator<Item, Page>(
  path: string,
  baseQuery: Query,
  fetchPage: PageFetcher,
  options: Pick<PaginateOptions, "concurrency"> = {},
): Paginator<Item, Page> {
  // A list is a GET the spec marks with x-pagination.
  const operation = operationFacts("GET", path)?.operation;
  const style = operation?.pagination;
  if (!operation || !style) {
    const known = paginatedOperations(SPEC)
      .filter((o) => o.method === "get")
      .map((o) => o.path);
    throw new TypeError(`${path} is not a paginated list; paginated lists: ${known.join(", ")}`);
  }
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  const pages =
    style.style === "offset"
      ? () => offsetPages<WithResponse<Page>>(operation, style, baseQuery, fetchPage, concurrency)
      : () => pagePages<WithResponse<Page>>(operation, style, baseQuery, fetchPage);
  const items = async function* () {
    for await (const page of pages()) yield* (page as Record<string, Item[]>)[style.itemsField] ?? [];
  };
  return {
    pages,
    [Symbol.asyncIterator]: () => items()[Symbol.asyncIterator](),
    async toArray() {
      const out: Item[] = [];
      for await (const item of items()) out.push(item);
      return out;
    },
  };
}

/**
 * The page's items. An offset walk cannot end without `count`, so it needs one; a page walk ends
 * on its `next` link, and the spec gives the page list's `count` a default, so it may be absent.
 */
function checkPage(
  path: string,
  page: Record<string, unknown>,
  style: { countField: string; itemsField: string },
  { countRequired }: { countRequired: boolean },
): unknown[] {
  const items = page?.[style.itemsField];
  const count = page?.[style.countField];
  const countOk = typeof count === "number" || (!countRequired && count === undefined);
  if (!Array.isArray(items) || !countOk) {
    throw new PaginationError(
      `${path}: a page has ${countRequired ? "no" : "a non-number"} ${style.countField}${countRequired ? " number" : ""} or no ${style.itemsField} array`,
      path,
    );
  }
  return items;
}

async function* offsetPages<Page>(
  operation: RuntimeOperation,
  style: OffsetPagination,
  baseQuery: Query,
  fetchPage: PageFetcher,
  concurrency: number,
): AsyncGenerator<Page> {
  const { path } = operation;
  const limit = (baseQuery[style.limitParam] as number | undefined) ?? pageSize(operation, style.limitParam);
  const start = (baseQuery[style.offsetParam] as number | undefined) ?? 0;
  const seen = new Set<string>();
  const load = async (offset: number) => {
    const page = (await fetchPage({
      ...baseQuery,
      [style.limitParam]: limit,
      [style.offsetParam]: offset,
    })) as Record<string, unknown>;
    return { offset, page };
  };
  const accept = (offset: number, page: Record<string, unknown>, count: number | undefined) => {
    const items = checkPage(path, page, style, { countRequired: true });
    const pageCount = page[style.countField] as number;
    if (count !== undefined && pageCount !== count) {
      throw new PaginationError(
        `${path}: ${style.countField} changed from ${count} to ${pageCount} at offset ${offset} during the walk`,
        path,
      );
    }
    if (!Number.isSafeInteger(pageCount) || pageCount < 0) {
      throw new PaginationError(
        `${path}: ${style.countField} ${pageCount} is not a whole number of items (a non-negative safe integer)`,
        path,
      );
    }
    if (items.length > limit) {
      throw new PaginationError(
        `${path}: the page at offset ${offset} has ${items.length} items, more than limit ${limit}`,
        path,
      );
    }
    // Every page but the last is full and the last holds the rest: any other length means the
    // server's count is wrong, and a short page (an empty one above all) followed on its word
    // could mean a walk without end.
    const due = Math.max(0, Math.min(limit, pageCount - offset));
    if (items.length !== due) {
      throw new PaginationError(
        `${path}: the page at offset ${offset} has ${items.length} items, but ${style.countField} ${pageCount} says ${due}`,
        path,
      );
    }
    for (const item of items) {
      const key = identity(item);
      if (seen.has(key))
        throw new PaginationError(
          `${path}: item ${key.replace(/^(id|json):/, "")} appears twice (again at offset ${offset})`,
          path,
        );
      seen.add(key);
    }
  };

  const first = await load(start);
  accept(start, first.page, undefined);
  const count = first.page[style.countField] as number;
  yield first.page as Page;

  // Pages are requested up to `concurrency` at a time and handed out in order. Offsets are made
  // as they are needed, never listed up front: count is the server's word, and may be anything.
  const inFlight: Promise<{ offset: number; page: Record<string, unknown> }>[] = [];
  let nextOffset = start + limit;
  const fill = () => {
    while (inFlight.length < concurrency && nextOffset < count) {
      const pending = load(nextOffset);
      nextOffset += limit;
      pending.catch(() => {}); // surfaced when awaited in order
      inFlight.push(pending);
    }
  };
  fill();
  while (inFlight.length > 0) {
    const { offset, page } = await (inFlight.shift() as Promise<{
      offset: number;
      page: Record<string, unknown>;
    }>);
    accept(offset, page, count);
    yield page as Page;
    fill();
  }
}

/** Query of the next page from the server's `next` query string, typed as the description says. */
function queryFromNext(operation: RuntimeOperation, next: string): Query {
  const search = new URLSearchParams(next.includes("?") ? next.slice(next.indexOf("?") + 1) : next);
  const query: Query = {};
  for (const key of new Set(search.keys())) {
    const type = parameterOf(operation, key, "query")?.type;
    const values = search.getAll(key);
    if (type === "array") query[key] = values;
    else if (type === "integer" || type === "number") query[key] = Number(values[0]);
    else query[key] = values[0];
  }
  return query;
}

async function* pagePages<Page>(
  operation: RuntimeOperation,
  style: PagePagination,
  baseQuery: Query,
  fetchPage: PageFetcher,
): AsyncGenerator<Page> {
  const { path } = operation;
  let query: Query = { ...baseQuery };
  let count: number | undefined;
  let pagesRead = 0;
  const seen = new Set<string>();
  for (;;) {
    const page = (await fetchPage(query)) as Record<string, unknown>;
    const items = checkPage(path, page, style, { countRequired: false });
    const pageCount = page[style.countField] as number | undefined;
    if (count !== undefined && pageCount !== count) {
      throw new PaginationError(
        `${path}: ${style.countField} changed from ${count} to ${pageCount} during the walk`,
        path,
      );
    }
    count = pageCount;
    for (const item of items) {
      const key = identity(item);
      if (seen.has(key))
        throw new PaginationError(`${path}: item ${key.replace(/^(id|json):/, "")} appears twice`, path);
      seen.add(key);
    }
    pagesRead++;
    yield page as Page;
    const next = page[style.nextField];
    if (next === null || next === undefined || next === "") return;
    if (typeof next !== "string")
      throw new PaginationError(`${path}: ${style.nextField} is neither a string nor null`, path);
    // An empty page that links to another: a walk that would go on by the server's word alone.
    if (items.length === 0)
      throw new PaginationError(
        `${path}: page ${pagesRead} has no items but its ${style.nextField} link is set`,
        path,
      );
    // A walk can never need more pages than there are items (plus the first page).
    if (count !== undefined && pagesRead > count + 1)
      throw new PaginationError(
        `${path}: ${style.nextField} is still set after ${pagesRead} pages of ${count} items`,
        path,
      );
    query = queryFromNext(operation, next);
  }
}
