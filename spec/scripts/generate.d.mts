/** The bundles types are generated for: "openapi" (the whole API) and each product. */
export declare const BUNDLES: readonly string[];

/** The types of one bundle ("openapi" for the whole API), exactly as committed in src/generated. */
export declare function generateTypes(name: string): Promise<string>;

/** The model of a description (by default the whole API's bundle) as src/generated/model.ts. */
export declare function generateModel(doc?: object): string;

/** The runtime view of the same model (`runtimeModel()`) as src/generated/runtime-model.ts. */
export declare function generateRuntimeModel(doc?: object): string;
