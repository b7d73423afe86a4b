// The functions of a package's sources longer than a reader holds at once: every function-like node
// with a body (declarations, expressions, arrows, methods, accessors, constructors), measured from
// its first line to its last, nested functions included in the lines of the one around them.
// Generated code (a `generated/` folder) is not written by hand, so it is not measured.
//
//   node scripts/function-length.mjs <max> <dir>...   prints each one longer; exit 1 when there is one
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

// Required rather than imported: Node's import of a CommonJS module first scans the whole of its
// text for named exports, and typescript.js is 9 MB (half a CPU-second of every run that loads it).
const ts = createRequire(import.meta.url)("typescript");

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? entry.name === "generated"
        ? []
        : sources(join(dir, entry.name))
      : /\.m?ts$/.test(entry.name) && !entry.name.endsWith(".d.ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** What a reader calls a function: its own name, else the name it is bound to, else where it is. */
function nameOf(node, parent, source) {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.name
  )
    return parent.name.getText(source);
  // A callback: named by the call it is given to, which is what a reader searches for.
  if (ts.isCallExpression(parent)) return `(argument of ${parent.expression.getText(source)})`;
  return "(anonymous)";
}

/** Every function of one source text with a body, as {name, line, lines}; line is 1-based. */
export function functionLengths(text, fileName = "source.ts") {
  // Without parent links (a walk of its own over the tree): each node's parent is the one the
  // walk comes from, and only a function's name needs it.
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const visit = (node, parent) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: nameOf(node, parent, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, node));
  };
  visit(source, undefined);
  return found;
}

/** Each function of `dir`'s sources longer than `max` lines, as {file (relative to root), line, name, lines}. */
export function longFunctions(dir, max, root = dir) {
  return sources(dir).flatMap((file) => {
    const text = readFileSync(file, "utf8");
    // A function spans lines of its file: a file of `max` lines or fewer holds none longer, and
    // is not parsed (about two files in three of the packages' sources).
    if (lineCount(text) <= max) return [];
    return functionLengths(text, file)
      .filter((f) => f.lines > max)
      .map((f) => ({ file: relative(root, file), ...f }));
  });
}

/** The lines of a text as an editor numbers them (a last line ended by a newline adds none). */
function lineCount(text) {
  return (text.match(/\n/g)?.length ?? 0) + (text.endsWith("\n") ? 0 : 1);
}

/** One function in words: where it is, its name and its length. */
export const inWords = (f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [max, ...dirs] = process.argv.slice(2);
  let long = 0;
  for (const dir of dirs)
    for (const f of longFunctions(dir, Number(max))) {
      long++;
      console.log(inWords({ ...f, file: join(dir, f.file) }));
    }
  process.exitCode = long > 0 ? 1 : 0;
}
