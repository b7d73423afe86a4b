// The one Ajv set-up of the project: JSON Schema 2020-12 (OpenAPI 3.1's dialect) with the formats
// the description uses, and the description itself registered so any of its schemas is reachable
// by pointer. The spec tests, the client's tests, the simulator and the conformance suite all
// build theirs here, so "valid against the spec" means one thing.
import { Ajv2020, type Options } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { withoutInferredRequired } from "./model/inferred.js";

/** The `$id` the description is registered under: `${SPEC_ID}#/components/...` reaches its schemas. */
export const SPEC_ID = "https://platform-api.local/openapi.json";

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

export interface SpecAjvOptions {
  /**
   * For path and query parameters, which arrive as strings (a repeated query parameter as an
   * array): coerce to the schema's type and fill in the schema's defaults. Bodies are never coerced.
   */
  coerce?: boolean;
  /** Keep the failing schema and data on each error (for messages that say what is allowed). */
  verbose?: boolean;
  /**
   * How to treat the fields a schema requires only by inference (`x-inferred-required`):
   * "required" (the default) as the description writes them; "optional" as the platform's
   * documentation states them, so a value without them is still valid. Validating once each way
   * tells what the documentation states (must) apart from what the description infers (should).
   */
  inferred?: InferredRequiredMode;
}

export type InferredRequiredMode = "required" | "optional";

export function createSpecAjv(
  doc: object | undefined,
  { coerce = false, verbose = false, inferred = "required" }: SpecAjvOptions = {},
): Ajv2020 {
  const options: Options = {
    strict: false,
    allErrors: true,
    verbose,
    validateFormats: true,
    coerceTypes: coerce ? "array" : false,
    useDefaults: coerce,
    // Ajv's pass that tidies the code it generates costs about half of each compile (the suite's
    // scenario worker compiles its schemas anew each run) and changes no result: what a validator
    // accepts, rejects and says is the same either way.
    code: { optimize: false },
  };
  const ajv = new Ajv2020(options);
  addFormats(ajv);
  // The platform's facts type some counts as uint64 (storage notification thresholds); ajv-formats
  // knows int32 and int64 only, and warns of an unknown format at each compile.
  ajv.addFormat("uint64", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= 0 });
  checkInferred(inferred);
  if (doc) addSpec(ajv, doc, { inferred });
  return ajv;
}

/**
 * Registers a description in an Ajv from `createSpecAjv` under `id` (SPEC_ID by default), its
 * inferences read as `inferred` says: one Ajv can hold several descriptions, each under its own id.
 */
export function addSpec(
  ajv: Ajv2020,
  doc: object,
  { inferred = "required", id = SPEC_ID }: { inferred?: InferredRequiredMode; id?: string } = {},
): void {
  checkInferred(inferred);
  ajv.addSchema({ ...(inferred === "optional" ? withoutInferredRequired(doc) : doc), $id: id });
}

function checkInferred(inferred: unknown): void {
  if (inferred !== "required" && inferred !== "optional")
    throw new TypeError(`inferred must be "required" or "optional", got ${JSON.stringify(inferred)}.`);
}

/** The absolute reference of a local pointer into the registered description. */
export const specRef = (localPointer: string): string => `${SPEC_ID}${localPointer}`;

/** A copy of a schema whose local `$ref`s point into the description registered under SPEC_ID. */
export function absoluteRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === "$ref" && typeof value === "string" && value.startsWith("#") ? specRef(value) : value,
  ) as T;
}
