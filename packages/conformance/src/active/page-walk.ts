// Reading a page list as a client does: one page from a query or a `next`/`previous` link, and a
// walk that follows `next`. A page that is no page is a deviation of the scenario or driver.

import type { Query, Request } from "../facts/api.js";
import { linkQuery, type PageList } from "../facts/pages.js";
import type { Http } from "../http/http.js";
import { fieldOf } from "../shared/json.js";
import { check, expectStatus } from "./check.js";

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
