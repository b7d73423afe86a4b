// What the client needs of each operation, read once from its view of the spec model
// (`CLIENT_MODEL`, generated from the spec's runtime model) and indexed by method and path
// template: every call looks its operation up, so nothing of the model is searched on the hot path.
import { HTTP_METHODS } from "@platform-api/spec/model";
import { CLIENT_MODEL } from "./generated/client-model.js";
import type { ClientModel, ClientOperation, ClientParameter } from "./model.js";

/** What the client reads of the spec model, as plain data (no file is read: the client runs in browsers). */
export const SPEC: ClientModel = CLIENT_MODEL;

/** openapi-fetch's method names ("GET", …), one per HTTP method the spec model knows. */
export const METHODS = HTTP_METHODS.map(
  (method) => method.toUpperCase() as Uppercase<(typeof HTTP_METHODS)[number]>,
);

const BY_METHOD = new Map<string, Map<string, ClientOperation>>();
for (const operation of SPEC.operations) {
  const method = operation.method.toUpperCase();
  const byPath = BY_METHOD.get(method) ?? new Map<string, ClientOperation>();
  byPath.set(operation.path, operation);
  BY_METHOD.set(method, byPath);
}

/** The operation at a method ("GET") and path template ("/cloud/v1/tasks/{task_id}"), if the spec has it. */
export function operationAt(method: string, path: string): ClientOperation | undefined {
  return BY_METHOD.get(method)?.get(path);
}

/** The operations of a client's scope: one product's, or the whole API's. */
export function operationsIn(product: string | undefined): readonly ClientOperation[] {
  return product === undefined ? SPEC.operations : SPEC.operations.filter((o) => o.product === product);
}

/** An operation's query parameter by name, if it has one. */
export const queryParameter = (operation: ClientOperation, name: string): ClientParameter | undefined =>
  operation.parameters.find((p) => p.name === name && p.in === "query");
