// The TypeScript the site shows a reader (each operation's sample in the reference, each block of
// the guides) and three samples broken on purpose, type-checked against @platform-api/client in one
// program for code-samples.test.ts and guides.test.ts. A program's set-up (the lib, @types/node,
// the client's types) is most of a check's cost: measured in one worker, a second program for the
// guides' blocks cost 1.4 CPU-s, one program for everything 0.3 s more than the samples' alone.
// Every source is an ES module of its own (typescript.ts): none changes another's diagnostics.
import { loadBundle } from "@platform-api/spec";
import { typescriptSample } from "../src/code-samples.js";
import { loadGuides, typescriptBlocks } from "../src/guides.js";
import { isObject, type Json, listOperations } from "../src/operations.js";
import { type Source, typecheck } from "./typescript.js";

const bundle = loadBundle();
const operations = listOperations(bundle);
const fieldsOf = (value: unknown): Json => (isObject(value) ? value : {});

/** Each operation's TypeScript sample, named by its operationId. */
export const samples: Source[] = operations.map((op) => ({
  name: op.operationId,
  code: typescriptSample(bundle, op),
}));

/** The TypeScript blocks of every guide, named "slug #n". */
export const guideBlocks: Source[] = loadGuides().flatMap((g) =>
  typescriptBlocks(g.markdown).map((code, i) => ({ name: `${g.slug} #${i + 1}`, code })),
);

/**
 * An operation with a path parameter and a JSON body with a number in it: three ways a sample can
 * disagree with the client, each of which the check must name.
 */
export const brokenOp = operations.find(
  (o) =>
    o.parameters.some((p) => p.in === "path") &&
    Object.values(fieldsOf(o.bodyExample)).some((v) => typeof v === "number"),
);

/** brokenOp's sample, broken each of the three ways. */
export const brokenSamples: Source[] = (() => {
  if (!brokenOp) return [];
  const source = typescriptSample(bundle, brokenOp);
  const parameter = brokenOp.parameters.find((p) => p.in === "path")?.name ?? "";
  const [field, value] =
    Object.entries(fieldsOf(brokenOp.bodyExample)).find(([, v]) => typeof v === "number") ?? [];
  return [
    {
      name: "broken: renamed path",
      code: source.replaceAll(JSON.stringify(brokenOp.path), JSON.stringify(`${brokenOp.path}s`)),
    },
    { name: "broken: renamed parameter", code: source.replace(`${parameter}: `, `${parameter}_renamed: `) },
    {
      name: "broken: wrong body type",
      code: source.replace(`${field}: ${value},`, `${field}: "${value}",`),
    },
  ];
})();

let checked: Map<string, string[]> | undefined;
/**
 * The diagnostics of every source above, keyed by its name ("(program)" for the program's own);
 * a source without any is absent. Checked once, by the first test that asks.
 */
export function shownProblems(): Map<string, string[]> {
  checked ??= typecheck([...samples, ...guideBlocks, ...brokenSamples], "shown");
  return checked;
}
