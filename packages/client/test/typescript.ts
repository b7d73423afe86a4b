// The TypeScript programs of the client's tests: the hover's language service and the README
// examples' check. Both read the same declarations (TypeScript's lib, the client's sources, the
// spec's generated types), and parsing them was most of each program's CPU; one document registry
// for the worker parses each once, for every program its files share (vitest's isolate: false runs
// the files of a worker in one module graph). Each program still type-checks on its own.
import ts from "typescript";

const registry = ts.createDocumentRegistry();

/**
 * A language service over `files` (their text in memory, each path absolute), with `options`;
 * whatever they import is read from disk. Files on disk do not change during a run, so every
 * file is at one version.
 */
export function languageService(
  files: ReadonlyMap<string, string>,
  options: ts.CompilerOptions,
  currentDirectory: string,
): ts.LanguageService {
  const read = (name: string) => files.get(name) ?? ts.sys.readFile(name);
  return ts.createLanguageService(
    {
      getScriptFileNames: () => [...files.keys()],
      getScriptVersion: () => "1",
      getScriptSnapshot: (name) => {
        const text = read(name);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => currentDirectory,
      getCompilationSettings: () => options,
      getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
      fileExists: (name) => files.has(name) || ts.sys.fileExists(name),
      readFile: read,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
      realpath: ts.sys.realpath,
    },
    registry,
  );
}
