// The house a newcomer reads: no hand-written function of any package (the spec's included) is
// longer than a reader holds at once (MAX_LINES, first line to last). A longer one is split into named helpers,
// each saying what it does; generated code (`generated/`) is not measured.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { functionLengths, inWords, longFunctions } from "../function-length.mjs";
import { root, SOURCES } from "./workspace-sources.js";

const MAX_LINES = 100;

it.each(SOURCES)(`%s has no hand-written function over ${MAX_LINES} lines`, (sources) => {
  expect(longFunctions(join(root, sources), MAX_LINES, root).map(inWords)).toEqual([]);
});

/** A function of `body` lines between its first line and its last, each a statement. */
const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  void ${i};`).join("\n");

it("names file, line, function and length of one over the bound (a source made up here)", () => {
  const text = [
    "// planted",
    `export function short() {\n${body(MAX_LINES)}\n}`, // lines 2 to 101: at the bound, not over
    `export const tooLong = () => {\n${body(MAX_LINES + 1)}\n};`, // 102 to 202
    `class Store {\n  load() {\n${body(MAX_LINES + 5)}\n  }\n}`, // load: 204 to 308
    `register(function () {\n${body(MAX_LINES + 2)}\n});`, // 310 to 411
  ].join("\n");
  const over = functionLengths(text).filter((f) => f.lines > MAX_LINES);
  expect(over.map((f) => inWords({ file: "planted.ts", ...f }))).toEqual([
    "planted.ts:102 tooLong (101 lines)",
    "planted.ts:204 load (105 lines)",
    "planted.ts:310 (argument of register) (102 lines)",
  ]);
});

const planted = mkdtempSync(join(tmpdir(), "function-length-"));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

it("measures every folder but generated/ ones (a folder made up here)", () => {
  mkdirSync(join(planted, "generated"));
  mkdirSync(join(planted, "deep"));
  const source = `export function big() {\n${body(MAX_LINES + 1)}\n}\n`;
  writeFileSync(join(planted, "generated", "types.ts"), source);
  writeFileSync(join(planted, "deep", "big.ts"), source);
  expect(longFunctions(planted, MAX_LINES).map(inWords)).toEqual([
    `deep/big.ts:1 big (${MAX_LINES + 1} lines)`,
  ]);
});
