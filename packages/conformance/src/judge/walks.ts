// The walks of a list the traffic made: the pages of one list asked with the same token, filters,
// ordering and limit, each page placed in its walk by its index. What the walk rules judge across
// pages (an item seen twice, a count that changes, neighbours that do not meet) is kept here.

import { identity } from "../facts/list-facts.js";
import type { WalkView } from "../rules/types.js";
import { BoundedMap } from "../shared/bounded-map.js";

interface Walk {
  step: number;
  count: number | undefined;
  /** The first and last item of each page seen, by page index (0 is the first page). */
  pages: Map<number, { first: unknown; last: unknown }>;
  /** Identities of the items seen; null once there were more than the walk may remember. */
  seen: Set<string> | null;
}

export interface Walks {
  /**
   * Where a page stands in its walk (`key`: the list, token, filters, ordering and limit), page
   * `index` of `step` items each. Re-reading a page of a walk starts it anew; a walk that has seen
   * every page up to its count is finished, and forgotten.
   */
  place(key: string, index: number, step: number, count: number | undefined, items: unknown[]): WalkView;
  /** Walks forgotten unfinished to stay within `walks`, and item identities let go past `itemsPerWalk`. */
  readonly dropped: { walks: number; items: number };
}

export function createWalks(options: {
  /** Most walks followed at once (LIMITS.walks). */
  walks: number;
  /** Most item identities per walk (LIMITS.itemsPerWalk): past it, its repeats and total are not judged. */
  itemsPerWalk: number;
}): Walks {
  const dropped = { walks: 0, items: 0 };
  const walks = new BoundedMap<string, Walk>(options.walks, () => dropped.walks++);

  function place(key: string, index: number, step: number, count: number | undefined, items: unknown[]) {
    let walk = walks.get(key);
    const continues = walk !== undefined && walk.step === step && index > 0 && !walk.pages.has(index);
    const walkCount = continues ? walk?.count : undefined;
    if (!continues || !walk) {
      walk = { step, count, pages: new Map(), seen: new Set() };
      walks.set(key, walk);
    }
    const ids = items.map(identity);
    const repeated = continues && walk.seen ? ids.filter((id) => walk?.seen?.has(id)) : [];
    const before = walk.pages.get(index - 1)?.last;
    const after = walk.pages.get(index + 1)?.first;
    walk.pages.set(index, { first: items[0], last: items.at(-1) });
    if (walk.count === undefined) walk.count = count;
    for (const id of ids) walk.seen?.add(id);
    if (walk.seen && walk.seen.size > options.itemsPerWalk) {
      dropped.items += walk.seen.size;
      walk.seen = null;
    }
    let visitedAtEnd: number | undefined;
    if (finished(walk)) {
      visitedAtEnd = walk.seen?.size;
      walks.delete(key);
    }
    return { continues, walkCount, repeated, visitedAtEnd, before, after };
  }

  return {
    place,
    get dropped() {
      return { ...dropped };
    },
  };
}

/** Whether a walk has seen every page from the first to the one that reaches its count. */
function finished(walk: Walk): boolean {
  if (walk.count === undefined || !walk.pages.has(0)) return false;
  const needed = Math.ceil(walk.count / walk.step);
  if (walk.pages.size < needed) return false;
  for (let i = 0; i < needed; i++) if (!walk.pages.has(i)) return false;
  return true;
}
