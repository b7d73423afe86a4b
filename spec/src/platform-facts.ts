// What the platform's own published descriptions state beyond the seed (platform-facts.yaml next
// to the description), checked against its JSON Schema when read. Node only: reads files. The
// description itself stays the seed; these facts are what other packages may honour where the
// seed is silent, and where a fact disagrees with the seed the seed wins.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { createSpecAjv } from "./ajv.js";
import { PLATFORM_FACTS } from "./generated/platform-facts.js";
import type { SchemaNode } from "./model/types.js";

export const platformFactsPath = fileURLToPath(new URL("../platform-facts.yaml", import.meta.url));
export const platformFactsSchemaPath = fileURLToPath(
  new URL("../platform-facts.schema.json", import.meta.url),
);

/** Where a fact was read: a file of a repository at a commit, and where in it. */
export interface PlatformFactSource {
  readonly repository: string;
  readonly path: string;
  /** 40 hexadecimal digits. */
  readonly commit: string;
  /** JSON pointer into the (YAML or JSON) description the path names. */
  readonly pointer?: string;
  readonly line?: number;
}

interface FactBase {
  /** Stable name of the fact; spec/README.md names each disagreement by it. */
  readonly id: string;
  /** "silent": the seed leaves this open; "disagrees": the seed says otherwise (and wins). */
  readonly seed: "silent" | "disagrees";
  /** What the seed says, where it disagrees. */
  readonly seedSays?: string;
  readonly note?: string;
  readonly source: PlatformFactSource;
  readonly confirmedBy?: readonly PlatformFactSource[];
}

export interface ParameterFact extends FactBase {
  readonly kind: "parameter";
  readonly name: string;
  readonly in: "query" | "path" | "header";
  /** The key is sent once per value (`state=ERROR&state=FINISHED`). */
  readonly repeatable?: boolean;
  readonly deprecated?: boolean;
  readonly schema: SchemaNode;
}

export interface FieldFact extends FactBase {
  readonly kind: "field";
  /** Which body the field path starts from. */
  readonly at: "request" | "response";
  /** For `at: "response"`: the status whose body it is. */
  readonly status?: string;
  /** Dot-separated property names, `[]` after a name for the items of an array. */
  readonly field: string;
  /** Required within the object that holds it. */
  readonly required?: boolean;
  /** Required when the sibling field named by the one key has one of the listed values. */
  readonly requiredWhen?: { readonly [sibling: string]: readonly string[] };
  readonly schema: SchemaNode;
}

export interface StatusFact extends FactBase {
  readonly kind: "status";
  readonly status: string;
  /** The body's schema, when the platform gives one. */
  readonly schema?: SchemaNode;
}

export type PlatformFact = ParameterFact | FieldFact | StatusFact;

export interface PlatformFacts {
  readonly version: 1;
  /** Every repository and commit the facts were read from. */
  readonly sources: readonly {
    readonly repository: string;
    readonly commit: string;
    readonly paths: readonly string[];
  }[];
  /** Facts by the operationId of this description. */
  readonly operations: { readonly [operationId: string]: readonly PlatformFact[] };
}

let facts: PlatformFacts | undefined;

/**
 * The platform's published facts beyond the seed: platform-facts.yaml as `pnpm generate` checked
 * and wrote it (src/generated/platform-facts.ts; a test proves it fresh), frozen once per process.
 */
export function platformFacts(): PlatformFacts {
  if (!facts) facts = deepFreeze(structuredClone(PLATFORM_FACTS));
  return facts;
}

/** Parses and checks a record of platform facts; throws naming every place it breaks the schema. */
export function readPlatformFacts(text: string): PlatformFacts {
  // Loaded on first use: every importer of the package's index (the CLIs among them) would
  // otherwise pay for the YAML parser at start-up (measured: ~25 ms) without reading facts.
  const { parse } = createRequire(import.meta.url)("yaml") as typeof import("yaml");
  const data: unknown = parse(text);
  const validate = createSpecAjv(undefined).compile(
    JSON.parse(readFileSync(platformFactsSchemaPath, "utf8")),
  );
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
    throw new Error(`The platform facts break ${platformFactsSchemaPath}:\n${problems.join("\n")}`);
  }
  return deepFreeze(data as PlatformFacts);
}

/** The facts recorded for one operation of this description (none: an empty list). */
export function platformFactsOf(operationId: string): readonly PlatformFact[] {
  return platformFacts().operations[operationId] ?? [];
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
