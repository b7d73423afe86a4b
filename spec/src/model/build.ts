// Turns a bundled description into the spec model, and checks what holds across its parts.
// Operations and their x-pagination / x-async-task are read in operations.ts; the request rate
// (x-rate-limits) and task polling (x-task-polling) in conventions.ts; the fields required only by
// inference (x-inferred-required) in inferred.ts; how each security scheme sends its token in
// security.ts.
import { readConventions } from "./conventions.js";
import { readInferredRequired } from "./inferred.js";
import { isObject } from "./json.js";
import { readOperations, schemeNames } from "./operations.js";
import { readSecuritySchemes } from "./security.js";
import type { SpecModel } from "./types.js";

const models = new WeakMap<object, SpecModel>();

/**
 * The model of a description, built once per document object: programs that ask it many questions
 * (a page per operation, a server and its world) share one. The document must not change after.
 */
export function modelOf(doc: object): SpecModel {
  let model = models.get(doc);
  if (!model) {
    model = buildModel(doc);
    models.set(doc, model);
  }
  return model;
}

export function buildModel(doc: unknown): SpecModel {
  if (!isObject(doc) || !isObject(doc.paths))
    throw new Error("Not an OpenAPI description: it has no `paths`.");
  const info = isObject(doc.info) ? doc.info : {};
  const { operations, products } = readOperations(doc);
  const ids = new Map<string, string>();
  for (const o of operations) {
    const seen = ids.get(o.operationId);
    if (seen) throw new Error(`operationId ${o.operationId} is used twice: ${seen} and ${o.key}.`);
    ids.set(o.operationId, o.key);
  }
  for (const o of operations) {
    if (o.asyncTask && !ids.has(o.asyncTask.pollOperationId))
      throw new Error(
        `${o.operationId}'s x-async-task polls ${o.asyncTask.pollOperationId}, which is not an operation.`,
      );
  }

  return {
    title: String(info.title ?? ""),
    version: String(info.version ?? ""),
    products,
    operations,
    securitySchemes: readSecuritySchemes(doc),
    defaultSecurity: schemeNames(doc.security),
    conventions: readConventions(doc, operations),
    inferredRequired: readInferredRequired(doc),
  };
}
