// The import circles of a package's sources: every module that reaches itself through its relative
// imports, types included (types are leaves: a type needed by two modules lives where neither
// imports the other). TypeScript's own pre-processor lists each file's imports.
//
//   node scripts/import-cycles.mjs <dir>...   prints each circle; exit 1 when there is one
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : /\.m?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Each source file of `dir` and the files of `dir` it imports. */
export function importGraph(dir) {
  const graph = new Map();
  for (const file of sources(dir)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    graph.set(
      file,
      importedFiles
        .map((i) => i.fileName)
        .filter((name) => name.startsWith("."))
        .map((name) => resolve(dirname(file), name.replace(/\.js$/, ".ts").replace(/\.mjs$/, ".mts"))),
    );
  }
  return graph;
}

/** Every circle of the graph, as the files on it (relative to `root`), the first repeated last. */
export function cyclesOf(graph, root) {
  const found = [];
  const done = new Set();
  const path = [];
  const visit = (file) => {
    if (path.includes(file)) {
      found.push([...path.slice(path.indexOf(file)), file].map((f) => relative(root, f)));
      return;
    }
    if (done.has(file)) return;
    path.push(file);
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next);
    path.pop();
    done.add(file);
  };
  for (const file of graph.keys()) visit(file);
  return found;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let circles = 0;
  for (const dir of process.argv.slice(2)) {
    for (const circle of cyclesOf(importGraph(dir), dir)) {
      circles++;
      console.log(`${dir}: ${circle.join(" -> ")}`);
    }
  }
  process.exitCode = circles > 0 ? 1 : 0;
}
