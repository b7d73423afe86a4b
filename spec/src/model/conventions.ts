// The platform's conventions stated at the description's root and on the task operation: the
// request rate and other limits (x-rate-limits), the default base address (servers), and task
// polling (x-task-polling, with the task schema's states and created_resources keys).
import { type JsonObject, resolveRef } from "../ref.js";
import { asArray, isObject, withoutUnspecified } from "./json.js";
import type { Conventions, OperationModel, PollingInterval, RateLimit, TaskPolling } from "./types.js";

export function readConventions(doc: JsonObject, operations: OperationModel[]): Conventions {
  const rateLimits = asArray(doc["x-rate-limits"])
    .filter(isObject)
    .map((r) => withoutUnspecified(r) as unknown as RateLimit);
  const requestRate = rateLimits.find((r) => r.appliesTo === "all");
  if (!requestRate) throw new Error("x-rate-limits has no limit that applies to all calls (appliesTo: all).");
  const servers = asArray(doc.servers).filter(isObject);
  const variables = isObject(servers[0]?.variables) ? servers[0].variables : {};
  const baseUrl = isObject(variables.base_url) ? variables.base_url.default : servers[0]?.url;
  if (typeof baseUrl !== "string") throw new Error("The description names no server base address.");
  const taskPolling = readTaskPolling(doc, operations);
  return { defaultBaseUrl: baseUrl, rateLimits, requestRate, ...(taskPolling ? { taskPolling } : {}) };
}

function readTaskPolling(doc: JsonObject, operations: OperationModel[]): TaskPolling | undefined {
  const found = operations
    .map((o) => ({ o, node: resolveRef<JsonObject>(doc, pointerNode(doc, o.pointer))?.["x-task-polling"] }))
    .filter((f): f is { o: OperationModel; node: JsonObject } => isObject(f.node));
  if (found.length === 0) return undefined;
  if (found.length > 1)
    throw new Error(
      `x-task-polling is on ${found.map((f) => f.o.operationId).join(" and ")}; expected on one operation.`,
    );
  const { o, node } = found[0] as { o: OperationModel; node: JsonObject };
  const task = resolveRef<JsonObject>(doc, schemaOf(doc, o, "200"));
  const properties = isObject(task?.properties) ? task.properties : {};
  const state = resolveRef<JsonObject>(doc, properties.state);
  const created = resolveRef<JsonObject>(doc, properties.created_resources);
  const terminalStates = asArray(node.terminalStates).map(String);
  const successState = String(node.successState ?? "");
  if (!terminalStates.includes(successState))
    throw new Error(
      `x-task-polling's successState "${successState}" is not one of its terminalStates (${terminalStates.join(", ")}).`,
    );
  return {
    operationId: o.operationId,
    states: asArray(state?.enum).map(String),
    terminalStates,
    successState,
    intervals: asArray(node.intervals).filter(isObject) as unknown as PollingInterval[],
    createdResourcesKeys: Object.keys(isObject(created?.properties) ? created.properties : {}),
  };
}

function schemaOf(doc: JsonObject, o: OperationModel, status: string): unknown {
  const p = o.responses
    .find((r) => r.status === status)
    ?.content.find((m) => m.contentType === "application/json")?.schemaPointer;
  return p ? resolveRef(doc, { $ref: p }) : undefined;
}

function pointerNode(doc: JsonObject, p: string): unknown {
  return resolveRef(doc, { $ref: p });
}
