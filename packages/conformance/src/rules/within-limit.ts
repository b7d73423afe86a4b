// No page longer than the limit asked (or, without one, the spec's default): the one judgement of
// both list styles' page-within-limit rules. A limit outside the spec's bounds may be clamped
// (pagination.offset.limit-bounds judges that), so it is not judged here.

import type { OffsetPageEvent, PagePageEvent, Verdict } from "./types.js";

export const withinLimit = ({ limit, items, answer, list }: OffsetPageEvent | PagePageEvent): Verdict =>
  limit === undefined ||
  limit < (list.limit.minimum ?? 0) ||
  limit > (list.limit.maximum ?? Number.POSITIVE_INFINITY)
    ? undefined
    : items <= limit
      ? null
      : `${answer.url} returned ${items} items, more than ${list.limit.name}=${limit}`;
