// What the platform's own published descriptions state beyond the seed (platform-facts.yaml next
// to the description), checked against its JSON Schema when read. Node only: reads files. The facts
// where the seed is silent are in the merged bundle already (scripts/merge-platform.mjs); the record
// is read for what the bundle does not hold: the disagreements (the seed wins) and the extensions.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { createSpecAjv } from "./ajv.js";
import { PLATFORM_FACTS } from "./generated/platform-facts.js";
import type { PlatformExtension, PlatformFact, PlatformFacts } from "./platform-facts-types.js";

/**
 * The header a package that serves an extension of the record marks each of its answers with,
 * naming the extension's id: the answer is the platform's documented behaviour, not the spec's.
 */
export const EXTENSION_HEADER = "x-platform-api-simulator-extension";

export const platformFactsPath = fileURLToPath(new URL("../platform-facts.yaml", import.meta.url));
export const platformFactsSchemaPath = fileURLToPath(
  new URL("../platform-facts.schema.json", import.meta.url),
);

export type {
  ExtensionField,
  FactBase,
  FieldFact,
  ParameterFact,
  PlatformExtension,
  PlatformFact,
  PlatformFactSource,
  PlatformFacts,
  StatusFact,
} from "./platform-facts-types.js";

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

/** The platform's operations outside this description that the record lists (none: an empty list). */
export function platformExtensions(): readonly PlatformExtension[] {
  return platformFacts().extensions ?? [];
}

/** One extension by its id; throws when the record has none of that id. */
export function platformExtension(id: string): PlatformExtension {
  const found = platformExtensions().find((extension) => extension.id === id);
  if (!found)
    throw new Error(
      `spec/platform-facts.yaml lists no extension "${id}" (it lists ${
        platformExtensions()
          .map((e) => e.id)
          .join(", ") || "none"
      }).`,
    );
  return found;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
