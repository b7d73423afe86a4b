// Calls of operations the scenarios pick from the spec model rather than name (every offset list,
// every read operation): which of the run's two keys the operation's security asks for, and
// values for its path parameters.

import type { OperationModel } from "@platform-api/spec";
import type { Auth, Request } from "./api.js";
import type { RunContext } from "./context.js";
import { specModel } from "./spec.js";

/**
 * The run holds two keys: the client key, for the scheme the spec's root `security` names, and the
 * reseller key, for an operation that only another scheme admits (ResellerAPIKey).
 */
export function keyFor(operation: OperationModel): "client" | "reseller" {
  const root = specModel().defaultSecurity;
  return operation.security.some((scheme) => root.includes(scheme)) ? "client" : "reseller";
}

/** Path parameter values the run knows, by the spec's parameter names. */
export function runPathValues(run: RunContext): Record<string, number> {
  return { project_id: run.discovered.projectId, region_id: run.discovered.regionId };
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
