// The import circles of a package's sources: every module that reaches itself through its relative
// imports, types included (types are leaves: a type needed by two modules lives where neither
// imports the other). TypeScript's own pre-processor lists each file's imports.
//
// A folder that declares its floors (a `floors.json` in it, see floorProblems) is also held to
// them: every import runs down the floors or stays in its folder, so that a reader finds a file's
// room from what it needs.
//
//   node scripts/import-cycles.mjs <dir>...   prints each circle and each import against the
//                                             floors; exit 1 when there is one
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

// Required rather than imported: Node's import of a CommonJS module first scans the whole of its
// text for named exports, and typescript.js is 9 MB (half a CPU-second of every run that loads it).
const ts = createRequire(import.meta.url)("typescript");

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
  // Absolute, as the imports are resolved: with a relative `dir` no import would meet its file.
  for (const file of sources(resolve(dir))) {
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

/**
 * The floors a folder declares in its `floors.json`, or undefined when it declares none:
 * `{ "entryPoints": [files of the folder's root], "floors": [{ "folders": [...], "peers"?: true }, ...] }`,
 * bottom floor first. A file may import from its own folder (the first segment of its path) and
 * from the folders of lower floors; the folders of a floor marked `peers` import none of each other;
 * the root holds only the entry points, which may import anything and are imported by nothing.
 */
export function readHouse(dir) {
  const file = join(dir, "floors.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
}

/**
 * Every import of the graph against the house's floors, and every loop between its folders, each
 * as a line naming the file, what it imports and the two floors.
 */
export function floorProblems(graph, root, house) {
  const floorOf = new Map();
  house.floors.forEach((floor, level) => {
    for (const folder of floor.folders) floorOf.set(folder, { level, peers: floor.peers === true });
  });
  const entries = new Set(house.entryPoints);
  const roomOf = (file) => {
    const path = relative(root, file).split(sep);
    return path.length === 1 ? undefined : path[0];
  };
  const name = (room) => {
    const floor = floorOf.get(room);
    return floor ? `${room}/ (floor ${floor.level + 1})` : `${room}/ (no floor)`;
  };
  const problems = [];
  const folderGraph = new Map();
  for (const [file, imports] of graph) {
    const at = relative(root, file);
    const room = roomOf(file);
    if (room === undefined) {
      if (!entries.has(at))
        problems.push(
          `${at}: in the root, which holds only the entry points (${house.entryPoints.join(", ")})`,
        );
      continue;
    }
    if (!floorOf.has(room)) problems.push(`${at}: its folder ${room}/ is on no floor`);
    for (const imported of imports) {
      if (!graph.has(imported)) continue;
      const to = roomOf(imported);
      const what = `${at} imports ${relative(root, imported)}`;
      if (to === undefined) {
        problems.push(`${what}: an entry point, which no floor imports`);
        continue;
      }
      if (to === room) continue;
      if (!folderGraph.has(room)) folderGraph.set(room, new Set());
      folderGraph.get(room).add(to);
      const [a, b] = [floorOf.get(room), floorOf.get(to)];
      if (!a || !b) continue;
      if (b.level > a.level)
        problems.push(`${what}: ${name(room)} may not import ${name(to)}, a higher floor`);
      else if (b.level === a.level)
        problems.push(
          `${what}: ${name(room)} may not import ${name(to)}, ${a.peers ? "a peer" : "the same floor"}`,
        );
    }
  }
  const folders = new Map(
    [...folderGraph].map(([room, to]) => [join(root, room), [...to].map((t) => join(root, t))]),
  );
  for (const loop of cyclesOf(folders, root))
    problems.push(`folders in a loop: ${loop.map((f) => `${f}/`).join(" -> ")}`);
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  let found = 0;
  for (const dir of process.argv.slice(2)) {
    const graph = importGraph(dir);
    for (const circle of cyclesOf(graph, dir)) {
      found++;
      console.log(`${dir}: ${circle.join(" -> ")}`);
    }
    const house = readHouse(dir);
    for (const problem of house ? floorProblems(graph, dir, house) : []) {
      found++;
      console.log(`${dir}: ${problem}`);
    }
  }
  process.exitCode = found > 0 ? 1 : 0;
}
