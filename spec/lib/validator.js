// Validates values and HTTP responses against the bundled description with Ajv (JSON Schema
// 2020-12, the dialect of OpenAPI 3.1). The spec tests, the client's mock test and later the
// simulator and conformance suite share it, so "valid against the spec" means one thing.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

const addFormats = /** @type {any} */ (addFormatsModule).default ?? addFormatsModule;
const BASE = "https://platform-api.local/openapi.json";

/** JSON pointer ("#/a/b") from unescaped segments. */
export function pointer(...segments) {
  return `#/${segments.map((s) => String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

/** Follows local `$ref`s ("#/components/...") to the node they point at. */
export function resolveRef(doc, node) {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 20; hops++) {
    current = current.$ref
      .slice(2)
      .split("/")
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((acc, key) => acc?.[key], doc);
  }
  return current;
}

/** Pointer of a node that may be a $ref: the target's pointer, else the given one. */
function pointerOf(node, fallback) {
  return typeof node?.$ref === "string" ? node.$ref : fallback;
}

/**
 * @param {Record<string, any>} doc the bundled OpenAPI description
 */
export function createSpecValidator(doc) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: BASE });
  const cache = new Map();

  /** Errors of `value` against the schema at `schemaPointer` ("#/components/schemas/Task"). */
  function validateSchema(schemaPointer, value) {
    let validate = cache.get(schemaPointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${BASE}${schemaPointer}` });
      cache.set(schemaPointer, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  }

  /**
   * Errors of an HTTP response against the operation it answers: the status must be documented
   * (exactly, as a range such as 2XX, or as default), a body must have a documented content type,
   * and a JSON body must satisfy the schema.
   * @param {{ method: string, path: string, status: number, contentType?: string | null, body?: unknown, hasBody?: boolean }} response
   *   `path` is the template as in the description ("/cloud/v1/tasks/{task_id}").
   */
  function validateResponse({ method, path, status, contentType, body, hasBody = body !== undefined }) {
    const m = method.toLowerCase();
    const pathItem = resolveRef(doc, doc.paths?.[path]);
    const operation = pathItem?.[m];
    if (!operation) return [`${method.toUpperCase()} ${path} is not an operation of the description`];
    const responses = operation.responses ?? {};
    const code = [String(status), `${String(status)[0]}XX`, "default"].find((c) => c in responses);
    if (!code) return [`status ${status} is not documented for ${method.toUpperCase()} ${path}`];
    const rawResponse = responses[code];
    const response = resolveRef(doc, rawResponse);
    const responsePointer = pointerOf(rawResponse, pointer("paths", path, m, "responses", code));
    const content = response.content ?? {};
    if (!hasBody) return [];
    const mediaType = (contentType ?? "").split(";")[0].trim().toLowerCase();
    if (Object.keys(content).length === 0)
      return [`status ${status} has a body but the description documents none`];
    if (!(mediaType in content)) {
      return [
        `content type "${contentType ?? ""}" is not documented for status ${status} (documented: ${Object.keys(content).join(", ")})`,
      ];
    }
    if (!/json/.test(mediaType) || !content[mediaType].schema) return [];
    return validateSchema(`${responsePointer}/content/${mediaType.replace(/\//g, "~1")}/schema`, body);
  }

  return { validateSchema, validateResponse };
}
