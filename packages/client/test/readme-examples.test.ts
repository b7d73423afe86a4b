// The README's TypeScript examples compile against the package as it is, so a change that breaks
// one fails here instead of misleading a reader.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { languageService } from "./typescript.js";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
const src = new URL("../src/", import.meta.url).pathname;
const exportsMap: Record<string, { default: string }> = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
).exports;
/** "@platform-api/client/redact" → "./redact.js": the source file the package's export builds from. */
const sourceOf = (subpath: string | undefined): string => {
  const built = exportsMap[subpath ? `./${subpath}` : "."]?.default;
  if (!built)
    throw new Error(`The README imports @platform-api/client/${subpath}, which the package does not export`);
  return built.replace(/^\.\/dist\//, "./");
};

/** Each example as a module of its own beside the sources, importing them as the package's exports. */
const examples = new Map(
  blocks.map((code, i) => [
    `${src}__readme_example_${i + 1}.ts`,
    `export {};\n${code.replace(
      /"@platform-api\/client(\/(\w+))?"/g,
      (_m, _s, subpath) => `"${sourceOf(subpath)}"`,
    )}`,
  ]),
);

/**
 * Every example's diagnostics, from one program: the examples share the package's sources and the
 * libraries, which one program per example would parse and check again each time (seconds each).
 * Each example is a module, so nothing one declares is seen by another.
 */
function diagnosticsByExample(): Map<string, string[]> {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const program = languageService(examples, options, src).getProgram();
  if (!program) throw new Error("TypeScript made no program of the README's examples");
  // Diagnostics of the whole program that no file owns (options, missing libraries) fail every example.
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  return new Map(
    [...examples.keys()].map((fileName) => {
      const file = program.getSourceFile(fileName);
      const own = file ? ts.getPreEmitDiagnostics(program, file).filter((d) => d.file === file) : [];
      const missing = file ? [] : [`${fileName} is not in the program`];
      return [
        fileName,
        [...missing, ...[...global, ...own].map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))],
      ];
    }),
  );
}

// One compile of the package's sources with every example: seconds alone, bounded for a loaded machine.
const COMPILE_TIMEOUT_MS = 120_000;
let diagnostics: Map<string, string[]>;
beforeAll(() => {
  diagnostics = diagnosticsByExample();
}, COMPILE_TIMEOUT_MS);

describe("README examples", () => {
  it("has TypeScript examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it.each([...examples.keys()].map((fileName, i) => [i + 1, fileName] as const))(
    "example %i type-checks",
    (_i, fileName) => {
      expect(diagnostics.get(fileName)).toEqual([]);
    },
  );
});
