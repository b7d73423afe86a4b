// The house a newcomer reads: no module of any package reaches itself through its imports, types
// included. The HTTP layer hands exchanges on without knowing the judge, a report is built without
// the judge, the client's rate limiter reads the spec rather than the options that configure it.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { cyclesOf, importGraph } from "../import-cycles.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const SOURCES = [
  "spec/src",
  "packages/client/src",
  "packages/simulator/src",
  "packages/conformance/src",
  "packages/docs/src",
];

it.each(SOURCES)("%s has no import circle", (dir) => {
  const graph = importGraph(join(root, dir));
  expect(graph.size).toBeGreaterThan(5);
  expect(cyclesOf(graph, join(root, dir)).map((c) => c.join(" -> "))).toEqual([]);
});

it("names a circle when there is one (a graph made up here)", () => {
  const planted = new Map([
    [join(root, "a.ts"), [join(root, "b.ts")]],
    [join(root, "b.ts"), [join(root, "c.ts")]],
    [join(root, "c.ts"), [join(root, "a.ts")]],
  ]);
  expect(cyclesOf(planted, root).map((c) => c.join(" -> "))).toEqual(["a.ts -> b.ts -> c.ts -> a.ts"]);
});
