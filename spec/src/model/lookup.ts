// Questions callers ask of the model, answered in one place. Where the description states no
// value a caller needs, the answer says so (`known: false`) and the caller decides; nothing here
// falls back to a number of its own.
import type {
  OffsetPagination,
  OperationModel,
  PagePagination,
  ParameterModel,
  PollingInterval,
  ResponseModel,
  TaskPolling,
} from "./types.js";

// The lookups take any model with the parts they read, so the slim runtime model (runtime.ts)
// and the full one answer the same questions.
type Named = Pick<OperationModel, "operationId">;
type Routed = Pick<OperationModel, "operationId" | "key" | "method" | "path" | "product"> &
  Partial<Pick<OperationModel, "pagination" | "asyncTask">>;
interface ModelOf<O> {
  readonly operations: readonly O[];
}
interface WithConventions {
  readonly conventions: { readonly taskPolling?: TaskPolling };
}

export function operationById<O extends Named>(model: ModelOf<O>, operationId: string): O {
  const found = model.operations.find((o) => o.operationId === operationId);
  if (!found)
    throw new Error(
      `The description has no operation ${operationId}; it has ${model.operations.map((o) => o.operationId).join(", ")}.`,
    );
  return found;
}

/** The operation at a method and path template, or undefined. */
export function findOperation<O extends Routed>(
  model: ModelOf<O>,
  method: string,
  path: string,
): O | undefined {
  const m = method.toLowerCase();
  return model.operations.find((o) => o.method === m && o.path === path);
}

/** The operation whose template matches a concrete path ("/cloud/v1/tasks/5a0a…"), or undefined. */
export function matchOperation<O extends Routed>(
  model: ModelOf<O>,
  method: string,
  concretePath: string,
): { operation: O; params: Record<string, string> } | undefined {
  const m = method.toLowerCase();
  const segments = concretePath.split("/");
  let best: { operation: O; params: Record<string, string>; literal: number } | undefined;
  for (const operation of model.operations) {
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

export function parameterOf<P extends Pick<ParameterModel, "name" | "in">>(
  operation: { readonly parameters: readonly P[] },
  name: string,
  where?: ParameterModel["in"],
): P | undefined {
  return operation.parameters.find((p) => p.name === name && (where === undefined || p.in === where));
}

/** Like parameterOf, for a parameter the caller cannot do without. */
export function requireParameter<P extends Pick<ParameterModel, "name" | "in">>(
  operation: { readonly operationId: string; readonly key: string; readonly parameters: readonly P[] },
  name: string,
  where?: ParameterModel["in"],
): P {
  const found = parameterOf(operation, name, where);
  if (!found)
    throw new Error(
      `${operation.operationId} (${operation.key}) has no ${where ? `${where} ` : ""}parameter ${name}; it has ${operation.parameters.map((p) => p.name).join(", ") || "none"}.`,
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

export function paginatedOperations<O extends Routed>(
  model: ModelOf<O>,
  style: "offset",
): (O & { pagination: OffsetPagination })[];
export function paginatedOperations<O extends Routed>(
  model: ModelOf<O>,
  style: "page",
): (O & { pagination: PagePagination })[];
export function paginatedOperations<O extends Routed>(model: ModelOf<O>): O[];
export function paginatedOperations<O extends Routed>(model: ModelOf<O>, style?: "offset" | "page"): O[] {
  return model.operations.filter(
    (o) => o.pagination && (style === undefined || o.pagination.style === style),
  );
}

export function asyncTaskOperations<O extends Routed>(model: ModelOf<O>): O[] {
  return model.operations.filter((o) => o.asyncTask);
}

/** The operations of one product (`x-product`). */
export function productOperations<O extends Routed>(model: ModelOf<O>, product: string): O[] {
  return model.operations.filter((o) => o.product === product);
}

export function taskPollingOf(model: WithConventions): TaskPolling {
  const polling = model.conventions.taskPolling;
  if (!polling) throw new Error("The description has no x-task-polling: no operation reads tasks.");
  return polling;
}

export type PollingAdvice =
  | { readonly known: true; readonly interval: PollingInterval }
  | { readonly known: false; readonly reason: string };

/**
 * The seed's polling row for a task type. Rows without a task type (the seed names the operation
 * only) never match; a task type without a row is `known: false`, and the caller picks.
 */
export function pollingAdviceFor(model: WithConventions, taskType: string | undefined): PollingAdvice {
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
