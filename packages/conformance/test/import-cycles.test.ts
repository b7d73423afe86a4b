// The house a newcomer reads: no module of the suite reaches itself through its imports (types
// included: types are leaves). The HTTP layer hands exchanges on without knowing the judge, the
// report is built without the judge, the rules know no driver. TypeScript's own pre-processor lists
// each file's imports, so a new circle fails here with its path.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Each file's relative imports, as files. */
function graph(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    out.set(
      file,
      importedFiles
        .map((i) => i.fileName)
        .filter((name) => name.startsWith("."))
        .map((name) => resolve(dirname(file), name.replace(/\.js$/, ".ts"))),
    );
  }
  return out;
}

function cycles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    if (path.includes(file)) {
      found.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)));
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const next of edges.get(file) ?? []) if (edges.has(next)) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of edges.keys()) visit(file);
  return found;
}

it("no module of src/ imports itself through others", () => {
  const edges = graph();
  expect(edges.size).toBeGreaterThan(50);
  expect(cycles(edges).map((c) => c.join(" -> "))).toEqual([]);
});

it("would name a circle: the finder itself finds one planted in a made-up graph", () => {
  const planted = new Map([
    [join(SRC, "a.ts"), [join(SRC, "b.ts")]],
    [join(SRC, "b.ts"), [join(SRC, "a.ts")]],
  ]);
  expect(cycles(planted).map((c) => c.join(" -> "))).toEqual(["a.ts -> b.ts -> a.ts"]);
});
