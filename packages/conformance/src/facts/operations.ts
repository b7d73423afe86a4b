// Calls of operations the scenarios pick from the spec model rather than name (every offset list,
// every read operation): which of the run's two keys the operation's security asks for, and
// values for its path parameters.

import type { OperationModel } from "@platform-api/spec";
import type { Need, RunContext } from "../shared/context.js";
import type { Auth, Request } from "./api.js";
import { specModel } from "./spec.js";

/**
 * The run holds two keys: the client key, for the scheme the spec's root `security` names, and the
 * reseller key, for an operation that only another scheme admits (ResellerAPIKey).
 */
export function keyFor(operation: OperationModel): "client" | "reseller" {
  const root = specModel().defaultSecurity;
  return operation.security.some((scheme) => root.includes(scheme)) ? "client" : "reseller";
}

/** Path parameter values the run knows, by the spec's parameter names (none that discovery could not give). */
export function runPathValues(run: RunContext): Record<string, number> {
  const { projectId, regionId } = run.discovered;
  return {
    ...(projectId === undefined ? {} : { project_id: projectId }),
    ...(regionId === undefined ? {} : { region_id: regionId }),
  };
}

/** The run's needs for an operation's path: the project and the region where its path has them. */
export function placeNeeds(operation: OperationModel): ("project" | "region")[] {
  const names = operation.parameters.filter((p) => p.in === "path").map((p) => p.name);
  return [
    ...(names.includes("project_id") ? (["project"] as const) : []),
    ...(names.includes("region_id") ? (["region"] as const) : []),
  ];
}

export type OperationCall = { request: Request } | { missing: string[] };

/**
 * A request of the operation with its path parameters from `values` and the key its security asks
 * for; `missing` names the path parameters `values` has nothing for.
 */
export function callOf(
  operation: OperationModel,
  values: Record<string, string | number>,
  auth: Auth = keyFor(operation),
): OperationCall {
  const names = operation.parameters.filter((p) => p.in === "path").map((p) => p.name);
  const missing = names.filter((name) => values[name] === undefined);
  if (missing.length > 0) return { missing };
  const params = Object.fromEntries(names.map((name) => [name, values[name] as string | number]));
  return {
    request: {
      method: operation.method.toUpperCase() as Request["method"],
      path: operation.path,
      params,
      auth,
    },
  };
}

/**
 * The request of an operation with the run's path values and the key its security asks for, or a
 * skip naming what the run lacks.
 */
export function requestFor(
  api: { run: RunContext; skip(reason: string): never },
  operation: OperationModel,
): Request {
  const call = callOf(operation, runPathValues(api.run));
  if ("request" in call) return call.request;
  return api.skip(`the suite has no value for ${call.missing.join(", ")} of ${operation.operationId}'s path`);
}

/** What calling an operation needs of the run: its key (the reseller's) and its path values. */
export function operationNeeds(operation: OperationModel): Need[] {
  return [...(keyFor(operation) === "reseller" ? (["reseller"] as const) : []), ...placeNeeds(operation)];
}
