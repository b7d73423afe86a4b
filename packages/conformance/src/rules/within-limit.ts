// No page longer than the limit asked (or, without one, the spec's default): the one judgement of
// both list styles' page-within-limit rules.

import type { OffsetPageEvent, PagePageEvent, Verdict } from "./types.js";

export const withinLimit = ({ limit, items, answer, list }: OffsetPageEvent | PagePageEvent): Verdict =>
  limit === undefined
    ? undefined
    : items <= limit
      ? null
      : `${answer.url} returned ${items} items, more than ${list.limit.name}=${limit}`;
