// Type-checks TypeScript samples as standalone ES modules against the real @platform-api/client,
// the way a user's project would compile them.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** Inside the package, so `@platform-api/client` resolves from its node_modules. */
const scratch = new URL("../node_modules/.cache/typecheck/", import.meta.url).pathname;

export const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
  types: ["node"],
  skipLibCheck: true,
  noEmit: true,
};

export interface Source {
  name: string;
  code: string;
}

/** Diagnostics of each source, keyed by its name; a source without any is absent. */
export function typecheck(sources: Source[], folder: string): Map<string, string[]> {
  const dir = join(scratch, folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // A package.json with "type": "module" makes every file an ES module (top-level await).
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const files = new Map<string, string>();
  sources.forEach((source, i) => {
    const file = join(dir, `sample-${i}.ts`);
    writeFileSync(file, source.code);
    files.set(file, source.name);
  });
  const program = ts.createProgram([...files.keys()], COMPILER_OPTIONS);
  const out = new Map<string, string[]>();
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file ? files.get(diagnostic.file.fileName) : "(program)";
    if (!name) continue;
    const where =
      diagnostic.file && diagnostic.start !== undefined
        ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
        : 0;
    const message = `line ${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    out.set(name, [...(out.get(name) ?? []), message]);
  }
  return out;
}
