// The judge's walks (src/judge/walks.ts) on pages made up here: where each page stands in its walk,
// when a walk ends or starts anew, and what it forgets to stay within its bounds.

import { describe, expect, it } from "vitest";
import { createWalks } from "../src/judge/walks.js";

const items = (...ids: number[]) => ids.map((id) => ({ id }));

describe("walks", () => {
  it("places each page of a walk: its repeats, its neighbours, the count its first pages gave", () => {
    const walks = createWalks({ walks: 4, itemsPerWalk: 100 });
    expect(walks.place("w", 0, 2, 5, items(1, 2))).toEqual({
      continues: false,
      walkCount: undefined,
      repeated: [],
      visitedAtEnd: undefined,
      before: undefined,
      after: undefined,
    });
    // Out of order: the last page before the middle one.
    expect(walks.place("w", 2, 2, 5, items(5))).toMatchObject({
      continues: true,
      walkCount: 5,
      before: undefined,
      visitedAtEnd: undefined,
    });
    expect(walks.place("w", 1, 2, 5, items(2, 3))).toEqual({
      continues: true,
      walkCount: 5,
      repeated: ["id:2"],
      // Every page up to the count seen: how many distinct items the walk visited.
      visitedAtEnd: 4,
      before: { id: 2 },
      after: { id: 5 },
    });
    expect(walks.dropped).toEqual({ walks: 0, items: 0 });
  });

  it("forgets a finished walk: its next page starts a walk anew", () => {
    const walks = createWalks({ walks: 4, itemsPerWalk: 100 });
    walks.place("w", 0, 2, 3, items(1, 2));
    expect(walks.place("w", 1, 2, 3, items(3)).visitedAtEnd).toBe(3);
    expect(walks.place("w", 1, 2, 3, items(3))).toMatchObject({ continues: false, walkCount: undefined });
    // Forgotten because it ended, not to stay within a bound.
    expect(walks.dropped.walks).toBe(0);
  });

  it("a page read again, or with another step, starts a walk anew", () => {
    const walks = createWalks({ walks: 4, itemsPerWalk: 100 });
    walks.place("w", 0, 2, 6, items(1, 2));
    walks.place("w", 1, 2, 6, items(3, 4));
    const again = walks.place("w", 1, 2, 6, items(3, 4));
    expect(again).toMatchObject({ continues: false, repeated: [], before: undefined });
    walks.place("v", 0, 2, 6, items(1, 2));
    expect(walks.place("v", 1, 3, 6, items(4, 5, 6))).toMatchObject({ continues: false });
  });

  it("keeps at most `walks` walks, the least recently placed forgotten first and counted", () => {
    const walks = createWalks({ walks: 2, itemsPerWalk: 100 });
    walks.place("a", 0, 2, 10, items(1, 2));
    walks.place("b", 0, 2, 10, items(1, 2));
    walks.place("a", 1, 2, 10, items(3, 4));
    walks.place("c", 0, 2, 10, items(1, 2));
    expect(walks.dropped.walks).toBe(1);
    // "b" went, not "a": a's third page still continues its walk and sees its repeat.
    expect(walks.place("a", 2, 2, 10, items(4, 5))).toMatchObject({ continues: true, repeated: ["id:4"] });
    // b's next page starts a walk of its own, which pushes out "c".
    expect(walks.place("b", 1, 2, 10, items(3, 4))).toMatchObject({ continues: false, walkCount: undefined });
    expect(walks.dropped.walks).toBe(2);
  });

  it("past `itemsPerWalk` identities a walk lets them go: no repeats judged, no total at its end", () => {
    const walks = createWalks({ walks: 4, itemsPerWalk: 3 });
    walks.place("w", 0, 2, 6, items(1, 2));
    expect(walks.place("w", 1, 2, 6, items(3, 4))).toMatchObject({ continues: true, repeated: [] });
    expect(walks.dropped.items).toBe(4);
    expect(walks.place("w", 2, 2, 6, items(1, 5))).toMatchObject({
      continues: true,
      repeated: [],
      visitedAtEnd: undefined,
      before: { id: 4 },
    });
    expect(walks.dropped).toEqual({ walks: 0, items: 4 });
  });
});
