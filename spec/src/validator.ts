// Validates values and HTTP answers against the description: the operation's documented statuses,
// content types and schemas, read from the spec model, checked by the project's one Ajv set-up.
import type { ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { addSpec, createSpecAjv, type InferredRequiredMode, SPEC_ID } from "./ajv.js";
import { buildModel } from "./model/build.js";
import { findOperation, responseFor } from "./model/lookup.js";
import type { SpecModel } from "./model/types.js";

export interface ResponseToValidate {
  method: string;
  /** The path template as in the description, e.g. "/cloud/v1/tasks/{task_id}". */
  path: string;
  status: number;
  contentType?: string | null;
  body?: unknown;
  /** Whether the answer had a body; by default, whether `body` is given. */
  hasBody?: boolean;
}

export interface SpecValidator {
  readonly model: SpecModel;
  /** Errors of `value` against the schema at a pointer such as "#/components/schemas/Task". */
  validateSchema(schemaPointer: string, value: unknown): string[];
  /** Errors of an HTTP answer against the operation it answers; empty when valid. */
  validateResponse(response: ResponseToValidate): string[];
}

export interface SpecValidatorOptions {
  /**
   * "required" (the default): fields required by inference (`x-inferred-required`) are required;
   * "optional": only what the platform's documentation states is (see `createSpecAjv`).
   */
  inferred?: InferredRequiredMode;
  /**
   * An Ajv from `createSpecAjv(undefined)` to register the description in (under an id of its own)
   * instead of a new one: each new Ajv compiles the JSON Schema meta-schema again (about 60 ms), so
   * validators made together (a run's, once each way) share one.
   */
  ajv?: Ajv2020;
}

/** How many descriptions each shared Ajv holds: the next one's id is numbered after them. */
const registered = new WeakMap<Ajv2020, number>();

/** An Ajv with the description in it, and the id it is registered under. */
function ajvWith(doc: object, inferred: InferredRequiredMode, shared: Ajv2020 | undefined) {
  if (!shared) return { ajv: createSpecAjv(doc, { inferred }), id: SPEC_ID };
  const count = (registered.get(shared) ?? 0) + 1;
  registered.set(shared, count);
  const id = `${SPEC_ID}?validator=${count}`;
  addSpec(shared, doc, { inferred, id });
  return { ajv: shared, id };
}

export function createSpecValidator(
  doc: object,
  model: SpecModel = buildModel(doc),
  { inferred = "required", ajv: shared }: SpecValidatorOptions = {},
): SpecValidator {
  const { ajv, id } = ajvWith(doc, inferred, shared);
  const cache = new Map<string, ValidateFunction>();

  function validateSchema(schemaPointer: string, value: unknown): string[] {
    let validate = cache.get(schemaPointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${id}${schemaPointer}` });
      cache.set(schemaPointer, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  }

  /**
   * The status must be documented (exactly, as a range such as 2XX, or as default), a body must
   * have a documented content type, and a JSON body must satisfy the schema.
   */
  function validateResponse({
    method,
    path,
    status,
    contentType,
    body,
    hasBody = body !== undefined,
  }: ResponseToValidate): string[] {
    const operation = findOperation(model, method, path);
    const name = `${method.toUpperCase()} ${path}`;
    if (!operation) return [`${name} is not an operation of the description`];
    const response = responseFor(operation, status);
    if (!response) return [`status ${status} is not documented for ${name}`];
    if (!hasBody) return [];
    if (response.content.length === 0)
      return [`status ${status} has a body but the description documents none`];
    const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    const media = response.content.find((m) => m.contentType === mediaType);
    if (!media)
      return [
        `content type "${contentType ?? ""}" is not documented for status ${status} (documented: ${response.content.map((m) => m.contentType).join(", ")})`,
      ];
    if (!/json/.test(mediaType) || !media.schemaPointer) return [];
    return validateSchema(media.schemaPointer, body);
  }

  return { model, validateSchema, validateResponse };
}
