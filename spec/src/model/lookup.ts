// Questions callers ask of the model, answered in one place. Where the description states no
// value a caller needs, the answer says so (`known: false`) and the caller decides; nothing here
// falls back to a number of its own.
import type {
  RuntimeModel,
  RuntimeOperation,
  RuntimeParameter,
  RuntimePollingInterval,
  RuntimeTaskPolling,
} from "./runtime.js";
import type { OperationModel, ParameterModel, PollingInterval, ResponseModel, SpecModel } from "./types.js";

// The lookups answer for the full model and for its runtime view (runtime.ts) alike, and give
// back the operation and parameter types of the model they were asked about.
type AnyModel = SpecModel | RuntimeModel;
type AnyOperation = OperationModel | RuntimeOperation;
/** The operation type of a model: OperationModel for the full model, RuntimeOperation for its view. */
export type OperationOf<M> = M extends SpecModel ? OperationModel : RuntimeOperation;
/** The parameter type of an operation: ParameterModel for the full model's, RuntimeParameter else. */
export type ParameterOf<O> = O extends OperationModel ? ParameterModel : RuntimeParameter;
/** A model with its polling conventions: the full model's (a TaskPolling) or the runtime view's. */
interface WithConventions<P extends RuntimeTaskPolling = RuntimeTaskPolling> {
  readonly conventions: { readonly taskPolling?: P };
}

export function operationById<M extends AnyModel>(model: M, operationId: string): OperationOf<M> {
  const operations: readonly AnyOperation[] = model.operations;
  const found = operations.find((o) => o.operationId === operationId) as OperationOf<M> | undefined;
  if (!found)
    throw new Error(
      `The description has no operation ${operationId}; it has ${operations.map((o) => o.operationId).join(", ")}.`,
    );
  return found;
}

/** The operation at a method and path template, or undefined. */
export function findOperation<M extends AnyModel>(
  model: M,
  method: string,
  path: string,
): OperationOf<M> | undefined {
  const m = method.toLowerCase();
  return operationsOf(model).find((o) => o.method === m && o.path === path);
}

/** The operation whose template matches a concrete path ("/cloud/v1/tasks/5a0a…"), or undefined. */
export function matchOperation<M extends AnyModel>(
  model: M,
  method: string,
  concretePath: string,
): { operation: OperationOf<M>; params: Record<string, string> } | undefined {
  const m = method.toLowerCase();
  const segments = concretePath.split("/");
  let best: { operation: OperationOf<M>; params: Record<string, string>; literal: number } | undefined;
  for (const operation of operationsOf(model)) {
    if (operation.method !== m) continue;
    const template = operation.path.split("/");
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let literal = 0;
    const fits = template.every((part, i) => {
      const actual = segments[i] ?? "";
      const name = /^\{(.+)\}$/.exec(part)?.[1];
      if (name) {
        if (actual === "") return false;
        params[name] = decodeURIComponentSafe(actual);
        return true;
      }
      literal++;
      return part === actual;
    });
    // A literal segment beats a template one ("/a/b" over "/a/{x}"), as routers do.
    if (fits && (!best || literal > best.literal)) best = { operation, params, literal };
  }
  return best && { operation: best.operation, params: best.params };
}

export function parameterOf<O extends AnyOperation>(
  operation: O,
  name: string,
  where?: ParameterModel["in"],
): ParameterOf<O> | undefined {
  const parameters: readonly RuntimeParameter[] = operation.parameters;
  return parameters.find((p) => p.name === name && (where === undefined || p.in === where)) as
    | ParameterOf<O>
    | undefined;
}

/** Like parameterOf, for a parameter the caller cannot do without. */
export function requireParameter<O extends AnyOperation>(
  operation: O,
  name: string,
  where?: ParameterModel["in"],
): ParameterOf<O> {
  const found = parameterOf(operation, name, where);
  if (!found)
    throw new Error(
      `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path}) has no ${where ? `${where} ` : ""}parameter ${name}; it has ${operation.parameters.map((p) => p.name).join(", ") || "none"}.`,
    );
  return found;
}

/** The documented response for a status: exact, then its range ("4XX"), then "default". */
export function responseFor(operation: OperationModel, status: number): ResponseModel | undefined {
  const code = String(status);
  return (
    operation.responses.find((r) => r.status === code) ??
    operation.responses.find((r) => r.status === `${code[0]}XX`) ??
    operation.responses.find((r) => r.status === "default")
  );
}

/** Whether the operation documents the status, exactly or as a range (not through `default`). */
export function documentsStatus(operation: OperationModel, status: number): boolean {
  const code = String(status);
  return operation.responses.some((r) => r.status === code || r.status === `${code[0]}XX`);
}

/**
 * The fields the schema at a pointer requires only by inference (its `x-inferred-required`); empty
 * where it requires nothing by inference. A missing one is a deviation from the description, not
 * from what the platform's documentation states.
 */
export function inferredRequiredAt(model: SpecModel, schemaPointer: string): readonly string[] {
  return model.inferredRequired[schemaPointer] ?? [];
}

export function paginatedOperations<M extends AnyModel>(
  model: M,
  style: "offset",
): (OperationOf<M> & { pagination: Extract<OperationOf<M>["pagination"], { style: "offset" }> })[];
export function paginatedOperations<M extends AnyModel>(
  model: M,
  style: "page",
): (OperationOf<M> & { pagination: Extract<OperationOf<M>["pagination"], { style: "page" }> })[];
export function paginatedOperations<M extends AnyModel>(model: M): OperationOf<M>[];
export function paginatedOperations<M extends AnyModel>(
  model: M,
  style?: "offset" | "page",
): OperationOf<M>[] {
  return operationsOf(model).filter(
    (o) => o.pagination && (style === undefined || o.pagination.style === style),
  );
}

export function asyncTaskOperations<M extends AnyModel>(model: M): OperationOf<M>[] {
  return operationsOf(model).filter((o) => o.asyncTask);
}

/** The operations of one product (`x-product`). */
export function productOperations<M extends AnyModel>(model: M, product: string): OperationOf<M>[] {
  return operationsOf(model).filter((o) => o.product === product);
}

/** A model's operations, typed as the model's kind (full or runtime view). */
function operationsOf<M extends AnyModel>(model: M): readonly OperationOf<M>[] {
  return model.operations as readonly OperationOf<M>[];
}

export function taskPollingOf<P extends RuntimeTaskPolling>(model: WithConventions<P>): P {
  const polling = model.conventions.taskPolling;
  if (!polling) throw new Error("The description has no x-task-polling: no operation reads tasks.");
  return polling;
}

export type PollingAdvice<I extends RuntimePollingInterval = PollingInterval> =
  | { readonly known: true; readonly interval: I }
  | { readonly known: false; readonly reason: string };

/**
 * The seed's polling row for a task type. Rows without a task type (the seed names the operation
 * only) never match; a task type without a row is `known: false`, and the caller picks.
 */
export function pollingAdviceFor<I extends RuntimePollingInterval>(
  model: { readonly conventions: { readonly taskPolling?: { readonly intervals: readonly I[] } } },
  taskType: string | undefined,
): PollingAdvice<I> {
  const polling = model.conventions.taskPolling;
  if (!polling) return { known: false, reason: "the description has no x-task-polling" };
  if (taskType === undefined) return { known: false, reason: "the task has no task_type" };
  const interval = polling.intervals.find((row) => row.taskType === taskType);
  return interval
    ? { known: true, interval }
    : {
        known: false,
        reason: `x-task-polling lists no interval for task type "${taskType}" (it lists ${polling.intervals
          .map((r) => r.taskType)
          .filter(Boolean)
          .join(", ")})`,
      };
}

/** Whether the operation is admitted by the named security scheme. */
export const usesScheme = (operation: { readonly security: readonly string[] }, scheme: string): boolean =>
  operation.security.includes(scheme);

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
