// JSON Schema 2020-12 validation of values against nodes of the bundled description (Ajv), for
// the spec tests: the whole description is registered once, and any node is addressed by pointer.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Node } from "./bundle.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const BASE = "https://platform-api.local/openapi.json";

export function pointer(...segments: string[]): string {
  return `#/${segments.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

export function createValidator(doc: Node) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: BASE });
  const cache = new Map<string, ValidateFunction>();
  return (schemaPointer: string, value: unknown): string[] => {
    let validate = cache.get(schemaPointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${BASE}${schemaPointer}` });
      cache.set(schemaPointer, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  };
}
