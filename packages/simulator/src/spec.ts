// The bundled spec as the simulator uses it: one document, and Ajv instances (JSON Schema 2020-12,
// OpenAPI 3.1's dialect) that know it, so request checks and seed-file checks point into the spec's
// own schemas instead of repeating them.

import { loadBundle } from "@platform-api/spec";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

export type OpenApiDocument = Record<string, any>;

export const SPEC_ID = "https://platform-api.local/openapi.json";

const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv2020) => void;

export function loadSpec(): OpenApiDocument {
  return loadBundle();
}

/**
 * An Ajv that resolves `${SPEC_ID}#/components/...`. `coerce` is for path and query parameters,
 * which arrive as strings (and a repeated query parameter as an array); bodies are never coerced.
 */
export function createSpecAjv(doc: OpenApiDocument, { coerce }: { coerce: boolean }): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    coerceTypes: coerce ? "array" : false,
    useDefaults: coerce,
  });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: SPEC_ID });
  return ajv;
}
