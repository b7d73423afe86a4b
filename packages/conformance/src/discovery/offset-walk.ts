// The walk of an offset list the seed describes (increase offset by limit until it is at least
// count), over whatever sends the request: discovery reads the regions with it before a run, the
// scenarios read lists with it during one.

import { type OffsetList, type OffsetPage, pageQuery, readOffsetPage } from "../facts/offset.js";
import type { Answer } from "../http/http.js";

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
