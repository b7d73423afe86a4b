// The README's TypeScript examples compile against the package as it is, so a change that breaks
// one fails here instead of misleading a reader.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

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

describe("README examples", () => {
  it("has TypeScript examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
  });

  it.each(blocks.map((code, i) => [i + 1, code] as const))("example %i type-checks", (i, code) => {
    const fileName = `${src}__readme_example_${i}.ts`;
    const source = `export {};\n${code.replace(
      /"@platform-api\/client(\/(\w+))?"/g,
      (_m, _s, subpath) => `"${sourceOf(subpath)}"`,
    )}`;
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
    const host = ts.createCompilerHost(options);
    const readFile = host.readFile.bind(host);
    host.readFile = (f) => (f === fileName ? source : readFile(f));
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (f) => f === fileName || fileExists(f);
    const program = ts.createProgram([fileName], options, host);
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file?.fileName === fileName)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);
  });
});
