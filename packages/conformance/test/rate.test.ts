// What a burst proves, at fixed times: only requests sent and answered inside one period of the
// spec's rate count as one period's, and the densest period is the one that counts.

import { expect, it } from "vitest";
import { burstThreshold, mostWithinOnePeriod, requestRate, type Timed } from "../src/facts/rate.js";

const PERIOD_MS = requestRate().periodSeconds * 1000;

/** `n` requests, the k-th sent at `from + k * gap` and answered `took` ms later. */
const spaced = (n: number, from: number, gap: number, took: number): Timed[] =>
  Array.from({ length: n }, (_, k) => ({ start: from + k * gap, end: from + k * gap + took }));

it("counts the requests sent and answered within one period, in the densest period", () => {
  // Ten in the first period, then twenty packed into the third.
  const requests = [...spaced(10, 0, PERIOD_MS / 20, 1), ...spaced(20, 2 * PERIOD_MS, PERIOD_MS / 40, 1)];
  expect(mostWithinOnePeriod(requests)).toBe(20);
});

it("does not place a request whose answer took longer than a period", () => {
  expect(mostWithinOnePeriod(spaced(5, 0, 0, PERIOD_MS + 1))).toBe(0);
  expect(mostWithinOnePeriod(spaced(5, 0, 0, PERIOD_MS))).toBe(5);
});

it("a burst too slow to exceed the rate stays under the threshold, however long it runs", () => {
  const { limit } = requestRate();
  // The limit's rate exactly, for ten periods: never more than the limit (+1 at the edges) in one.
  const steady = spaced(10 * limit, 0, PERIOD_MS / limit, 1);
  expect(mostWithinOnePeriod(steady)).toBeLessThanOrEqual(limit + 1);
  expect(mostWithinOnePeriod(steady)).toBeLessThanOrEqual(burstThreshold());
  // Three times the threshold inside one period is over it.
  expect(
    mostWithinOnePeriod(spaced(3 * burstThreshold(), 0, PERIOD_MS / (4 * burstThreshold()), 1)),
  ).toBeGreaterThan(burstThreshold());
});

it("the threshold is more than twice the spec's limit: a fixed window may admit two windows' worth", () => {
  expect(burstThreshold()).toBeGreaterThan(2 * requestRate().limit);
});
