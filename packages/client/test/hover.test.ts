// What an editor shows on hovering a call: the TypeScript language service's quick info for
// `client.POST(…)` must carry the spec's summary and description of the operation. Only the
// language service can prove this (tsc checks types, not the JSDoc a hover picks); it reads the
// client's sources and the generated types, so the test compiles them once, in memory.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MODEL } from "@platform-api/spec/generated/model";
import { operationById } from "@platform-api/spec/model";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { languageService } from "./typescript.js";

const dir = fileURLToPath(new URL(".", import.meta.url));
/** A file of the test directory that exists only in memory, so imports resolve as in a test. */
const file = `${dir}__hover__.ts`;
const openapi = JSON.parse(
  readFileSync(fileURLToPath(import.meta.resolve("@platform-api/spec/dist/openapi.json")), "utf8"),
);

/** The client's tsconfig, as an editor reads it. */
const config = ts.getParsedCommandLineOfConfigFile(
  `${dir}../tsconfig.json`,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
    },
  },
) as ts.ParsedCommandLine;
// Without Node's types (the tests' tsconfig adds them): the client's sources are built with none
// (tsconfig.build.json) and the hover reads only them and the generated types; parsing Node's
// ~100 declaration files was half of this test's CPU.
const options: ts.CompilerOptions = { ...config.options, types: [] };

const CLIENTS = {
  "the whole API's client": "../src/index.js",
  "the cloud product's client": "../src/generated/products/cloud.js",
};

/**
 * The documentation the hover on `client.POST` shows, for a client of each of CLIENTS, calling
 * `path`: one program for all of them, since compiling it is the whole cost.
 */
function hoversOnCalls(path: string): Record<string, string> {
  const names = Object.keys(CLIENTS);
  const source = [
    ...Object.values(CLIENTS).map((module, i) => `import { createClient as create${i} } from "${module}";`),
    ...names.map(
      (_, i) =>
        `export const call${i} = () => create${i}({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" }).POST("${path}", { params: { path: { project_id: 1, region_id: 76 } }, body: { name: "data", source: "new-volume" } });`,
    ),
  ].join("\n");
  const service = languageService(new Map([[file, source]]), options, dir);
  const errors = service
    .getSemanticDiagnostics(file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
  expect(errors, "the calls compile").toEqual([]);
  return Object.fromEntries(
    names.map((name, i) => {
      const at = source.indexOf(".POST(", source.indexOf(`call${i} =`)) + 1;
      return [name, ts.displayPartsToString(service.getQuickInfoAtPosition(file, at)?.documentation)];
    }),
  );
}

/** One in-memory compile of the client and the spec's generated types: seconds of CPU, more when loaded. */
const COMPILE_MS = 120_000;

describe("hovering a call", () => {
  const operation = operationById(MODEL, "createVolume");
  const described: string = openapi.paths[operation.path][operation.method].description;

  it(
    "on the whole API's and a product's client shows the operation's summary and description",
    () => {
      const hovers = hoversOnCalls(operation.path);
      expect(Object.keys(hovers)).toEqual(Object.keys(CLIENTS));
      for (const [client, doc] of Object.entries(hovers)) {
        expect(doc, client).toContain(`${operation.method.toUpperCase()} ${operation.path}`);
        expect(doc, client).toContain(operation.summary);
        // The description as the spec words it; JSDoc keeps its line breaks.
        expect(doc.replace(/\s+/g, " "), client).toContain(described.trim().replace(/\s+/g, " "));
      }
    },
    COMPILE_MS,
  );
});
