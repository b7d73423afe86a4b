// The house a newcomer reads: no module of any package reaches itself through its imports, types
// included. The HTTP layer hands exchanges on without knowing the judge, a report is built without
// the judge, the client's rate limiter reads the spec rather than the options that configure it.
// The conformance suite's folders are floors besides (its src/floors.json): every import runs down
// them, so a file's folder says what it may need.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cyclesOf, floorProblems, importGraph, readHouse } from "../import-cycles.mjs";
import { root, SOURCES } from "./workspace-sources.js";

const CONFORMANCE = join(root, "packages/conformance/src");

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

describe("the conformance suite's floors", () => {
  const house =
    readHouse(CONFORMANCE) ?? expect.unreachable("packages/conformance/src/floors.json is missing");

  it("every import of its sources runs down the floors, and no folders loop", () => {
    const graph = importGraph(CONFORMANCE);
    expect(graph.size).toBeGreaterThan(100);
    expect(floorProblems(graph, CONFORMANCE, house)).toEqual([]);
  });

  it("the README's map names the floors' folders, bottom first", () => {
    const readme = readFileSync(join(root, "packages/conformance/README.md"), "utf8");
    const map = readme.slice(readme.indexOf("## How it is built"));
    const rows = [...map.matchAll(/^\| `src\/([a-z-]+)\/` *\|/gm)].map((m) => m[1]);
    expect(rows).toEqual(house.floors.flatMap((floor) => floor.folders));
  });

  // A house made up here: a back-import, an import between peers, a stray root file and a loop of
  // folders are each named with the file, what it imports and the two floors.
  const at = (path: string) => join(root, "house", path);
  const planted = {
    entryPoints: ["cli.ts"],
    floors: [
      { folders: ["shared"] },
      { folders: ["rules"] },
      { folders: ["judge"] },
      { folders: ["fuzz", "traffic"], peers: true },
    ],
  };
  const graphOf = (edges: [string, string[]][]) => new Map(edges.map(([file, to]) => [at(file), to.map(at)]));

  it("names an import from a lower floor to a higher one", () => {
    const graph = graphOf([
      ["cli.ts", ["judge/judge.ts"]],
      ["judge/judge.ts", ["rules/types.ts", "shared/json.ts"]],
      ["rules/types.ts", ["judge/answer.ts", "shared/json.ts"]],
      ["judge/answer.ts", ["shared/json.ts"]],
      ["shared/json.ts", []],
    ]);
    expect(floorProblems(graph, join(root, "house"), planted)).toEqual([
      "rules/types.ts imports judge/answer.ts: rules/ (floor 2) may not import judge/ (floor 3), a higher floor",
      "folders in a loop: judge/ -> rules/ -> judge/",
    ]);
  });

  it("names an import between peers, a root file that is no entry point and a folder on no floor", () => {
    const graph = graphOf([
      ["cli.ts", ["fuzz/run.ts"]],
      ["helpers.ts", []],
      ["fuzz/run.ts", ["traffic/har.ts"]],
      ["traffic/har.ts", ["cli.ts"]],
      ["misc/thing.ts", ["shared/json.ts"]],
      ["shared/json.ts", []],
    ]);
    expect(floorProblems(graph, join(root, "house"), planted)).toEqual([
      "helpers.ts: in the root, which holds only the entry points (cli.ts)",
      "fuzz/run.ts imports traffic/har.ts: fuzz/ (floor 4) may not import traffic/ (floor 4), a peer",
      "traffic/har.ts imports cli.ts: an entry point, which no floor imports",
      "misc/thing.ts: its folder misc/ is on no floor",
    ]);
  });
});
