/** The bundles types are generated for: "openapi" (the whole API) and each product. */
export declare const BUNDLES: readonly string[];

/** Ends the JSDoc of each field the types make optional though the description requires it. */
export declare const INFERRED_TYPES_NOTE: string;

/**
 * The types of one bundle ("openapi" for the whole API), exactly as committed in src/generated:
 * fields required only by inference (`x-inferred-required`) are optional in `components`, listed in
 * `inferredRequired` and present in `AsDescribed<"Schema">`.
 */
export declare function generateTypes(name: string): Promise<string>;

/** The model of a description (by default the whole API's bundle) as src/generated/model.ts. */
export declare function generateModel(doc?: object): string;

/** The runtime view of the same model (`runtimeModel()`) as src/generated/runtime-model.ts. */
export declare function generateRuntimeModel(doc?: object): string;
/** The platform's published facts (platform-facts.yaml) as data, checked against their schema, exactly as committed. */
export declare function generatePlatformFacts(text?: string): string;

/**
 * The generated modules that are data, not types (model.ts, runtime-model.ts, platform-facts.ts),
 * by file name in src/generated/, exactly as committed.
 */
export declare function generateRuntimeModules(): Record<string, string>;
