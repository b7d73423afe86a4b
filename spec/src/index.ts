// @platform-api/spec: the bundled description, its model, and the one Ajv set-up (Node only:
// loads files). `@platform-api/spec/model` has the model without Node.
export {
  absoluteRefs,
  createSpecAjv,
  type InferredRequiredMode,
  SPEC_ID,
  type SpecAjvOptions,
  specRef,
} from "./ajv.js";
export {
  bundlePath,
  loadBundle,
  loadModel,
  PRODUCT_BUNDLES,
  type ProductBundle,
  seedBundlePath,
} from "./bundle.js";
export * from "./fixtures/index.js";
export * from "./model/index.js";
export {
  EXTENSION_HEADER,
  type ExtensionField,
  type FieldFact,
  type ParameterFact,
  type PlatformExtension,
  type PlatformFact,
  type PlatformFactSource,
  type PlatformFacts,
  platformExtension,
  platformExtensions,
  platformFacts,
  platformFactsOf,
  platformFactsPath,
  platformFactsSchemaPath,
  readPlatformFacts,
  type StatusFact,
} from "./platform-facts.js";
export { type JsonObject, pointer, resolvePointer, resolveRef } from "./ref.js";
export {
  createSpecValidator,
  type ResponseToValidate,
  type SpecValidator,
  type SpecValidatorOptions,
} from "./validator.js";
