// The spec model without anything that needs Node: safe for browsers and bundlers.
export { buildModel, modelOf } from "./build.js";
export * from "./inferred.js";
export * from "./lookup.js";
export * from "./runtime.js";
export { authorization, operationTokenScheme, type TokenScheme, tokenScheme } from "./security.js";
export * from "./types.js";
