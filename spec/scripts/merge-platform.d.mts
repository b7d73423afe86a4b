/** platform-facts.yaml: where the record is read from, and its JSON Schema. */
export declare const FACTS_PATH: string;
export declare const FACTS_SCHEMA_PATH: string;
/** The bundles of dist/ that are merged (each also kept, the seed's word alone, in dist/seed/). */
export declare const MERGED_BUNDLES: readonly string[];
/** `x-platform-source`: the citations of a node a fact adds or amends. */
export declare const SOURCE_KEY: "x-platform-source";
/** `x-platform-required`: the names of `required` only the platform's documents state. */
export declare const PLATFORM_REQUIRED_KEY: "x-platform-required";
/** `x-platform-facts`: on the root of a merged bundle, the record's sources. */
export declare const MERGED_FROM_KEY: "x-platform-facts";
/** Reads and checks platform-facts.yaml (or the given text); throws naming every problem. */
export declare function readFacts(text?: string): unknown;
/** The merged description: a copy of a bundled description with every silent fact entered. */
export declare function mergePlatformFacts(
  seed: object,
  facts: unknown,
  options?: { requireAllOperations?: boolean },
): Record<string, unknown>;
/** A value for a schema: the schema's own `examples`, else what it fixes. */
export declare function plausible(schema: object): unknown;
/**
 * Merges every bundle of dist/ (or those of `names`) in place, keeping the seed's own in dist/seed/;
 * the names merged.
 */
export declare function mergeDist(distDir?: string, facts?: unknown, names?: readonly string[]): string[];
