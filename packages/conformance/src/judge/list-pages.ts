// An answer read as a page of an x-pagination list (offset or page style), placed in its walk: the
// event the list rules judge. A page whose paging the spec leaves open, or whose request is
// malformed, is no step of a walk and gives no event (the schema and limit-bounds results judge it).

import { offsetList, readOffsetPage } from "../facts/offset.js";
import { pageList } from "../facts/pages.js";
import type { AnswerEvent, OffsetPageEvent, PagePageEvent } from "../rules/types.js";
import { fieldOf } from "../shared/json.js";
import type { Walks } from "./walks.js";

export function offsetPageOf(base: AnswerEvent, walks: Walks): OffsetPageEvent | undefined {
  const list = offsetList(base.operation);
  const offset = Number(base.query.get(list.offset.name) ?? list.offset.default ?? 0);
  const { limit, limitAsked } = limitOf(base.query, list.limit.name, list.limit.default);
  const page = readOffsetPage(list, base.answer.body, offset);
  // The schema result says what is wrong with the page.
  if (!page || !Number.isInteger(offset) || offset < 0 || (limitAsked && limit === undefined)) return;
  if (outside(limit, list.limit) || openPaging(base, [list.limit.name, list.offset.name])) return;
  const step = limit !== undefined && limit > 0 ? limit : Math.max(1, page.items.length);
  const key = walkKey(base, list.offset.name);
  // An offset off the walk's grid starts a walk of its own.
  const walk =
    offset % step === 0
      ? walks.place(key, offset / step, step, page.count, page.items)
      : walks.place(`${key}|${offset}`, 0, step, undefined, page.items);
  const { count, items } = page;
  return { ...base, list, offset, limit, limitAsked, count, items: items.length, itemList: items, walk };
}

export function pagePageOf(base: AnswerEvent, walks: Walks): PagePageEvent | undefined {
  const list = pageList(base.operation);
  const body = base.answer.body;
  const items = fieldOf(body, list.pagination.itemsField);
  if (!Array.isArray(items)) return;
  const link = (field: string) => {
    const value = fieldOf(body, field);
    return typeof value === "string" ? value : null;
  };
  const sent = fieldOf(body, list.pagination.countField);
  const count = typeof sent === "number" && Number.isInteger(sent) ? sent : undefined;
  const page = Number(base.query.get(list.page.name) ?? list.page.default ?? 1);
  const { limit, limitAsked } = limitOf(base.query, list.limit.name, list.limit.default);
  if (!Number.isInteger(page) || page < 1 || outside(limit, list.limit)) return;
  if (openPaging(base, [list.limit.name, list.page.name])) return;
  const step = limit !== undefined && limit > 0 ? limit : Math.max(1, items.length);
  return {
    ...base,
    list,
    page,
    limit,
    limitAsked,
    count,
    items: items.length,
    itemList: items,
    next: link(list.pagination.nextField),
    previous: link(list.pagination.previousField),
    walk: walks.place(walkKey(base, list.page.name), page - 1, step, count, items),
  };
}

/** The walk a request belongs to: its list, token and query without the page's own position. */
function walkKey(base: AnswerEvent, without: string): string {
  const rest = new URLSearchParams(base.query);
  rest.delete(without);
  rest.sort();
  return `${base.auth.token}|${base.operation.operationId}|${base.answer.url.split("?")[0]}|${rest}`;
}

/** The limit a request asked for, else the spec's default; undefined when neither is a number. */
function limitOf(query: URLSearchParams, name: string, fallback: unknown) {
  const asked = query.get(name);
  const limit = asked !== null ? Number(asked) : typeof fallback === "number" ? fallback : undefined;
  return {
    limit: limit !== undefined && Number.isInteger(limit) ? limit : undefined,
    limitAsked: asked !== null,
  };
}

/**
 * Whether a limit the request asked for lies outside the spec's bounds: the server may clamp it
 * to anything in them (pagination.offset.limit-bounds judges that), so its page is no step of a walk.
 */
const outside = (limit: number | undefined, { minimum, maximum }: { minimum?: number; maximum?: number }) =>
  limit !== undefined && (limit < (minimum ?? 1) || limit > (maximum ?? Number.POSITIVE_INFINITY));

/**
 * Whether the request's paging holds a value whose effect the spec leaves open (fuzz says so on
 * its exchanges: a limit of the AI task list, whose bounds are x-unspecified, may be clamped to
 * a maximum the spec does not state): no page or walk rule judges such a page.
 */
const openPaging = (base: AnswerEvent, names: string[]) =>
  names.some((name) => base.exchange.openParameters?.includes(name));
