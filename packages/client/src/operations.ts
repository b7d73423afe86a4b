// What the client needs of each operation, read once from the spec model's runtime view
// (`RUNTIME_MODEL` of @platform-api/spec) and indexed by method and path template: every call
// looks its operation up, so nothing of the model is searched on the hot path.
import { RUNTIME_MODEL } from "@platform-api/spec/generated/runtime-model";
import {
  HTTP_METHODS,
  type RuntimeModel,
  type RuntimeOperation,
  type RuntimeParameter,
  usesScheme,
} from "@platform-api/spec/model";
import { RESELLER_SCHEME } from "./tokens.js";

/** The spec model of the whole API, as plain data (no file is read: the client runs in browsers). */
export const SPEC: RuntimeModel = RUNTIME_MODEL;

/** An operation as the compiled-in model states it, literally: what the helpers' types select paths by. */
export type SpecOperation = (typeof RUNTIME_MODEL)["operations"][number];

/** openapi-fetch's method names ("GET", …), one per HTTP method the spec model knows. */
export const METHODS = HTTP_METHODS.map(
  (method) => method.toUpperCase() as Uppercase<(typeof HTTP_METHODS)[number]>,
);

export interface OperationFacts {
  readonly operation: RuntimeOperation;
  /** The path and query parameters, which the client checks before sending. */
  readonly checked: readonly RuntimeParameter[];
  /** Whether the operation admits the reseller token (its `security` names ResellerAPIKey). */
  readonly reseller: boolean;
}

const BY_METHOD = new Map<string, Map<string, OperationFacts>>();
for (const operation of SPEC.operations) {
  const method = operation.method.toUpperCase();
  const byPath = BY_METHOD.get(method) ?? new Map<string, OperationFacts>();
  byPath.set(operation.path, {
    operation,
    checked: operation.parameters.filter((p) => p.in === "path" || p.in === "query"),
    reseller: usesScheme(operation, RESELLER_SCHEME),
  });
  BY_METHOD.set(method, byPath);
}

/** The operation at a method ("GET") and path template ("/cloud/v1/tasks/{task_id}"), if the spec has it. */
export function operationFacts(method: string, path: string): OperationFacts | undefined {
  return BY_METHOD.get(method)?.get(path);
}

/** The operations of a client's scope: one product's, or the whole API's. */
export function operationsIn(product: string | undefined): readonly RuntimeOperation[] {
  return product === undefined ? SPEC.operations : SPEC.operations.filter((o) => o.product === product);
}
