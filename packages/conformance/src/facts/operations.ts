// Calls of operations the scenarios pick from the spec model rather than name (every offset list,
// every read operation): which of the run's two keys the operation's security asks for, what the
// run needs for its path (the fixture registry's sources, src/facts/path-values.ts), and its request.

import type { DiscoveredValue, OperationModel } from "@platform-api/spec";
import type { Need } from "../shared/context.js";
import type { Auth, Request } from "./api.js";
import { needsCreated, pathSources } from "./path-values.js";
import { specModel } from "./spec.js";

/**
 * The run holds two keys: the client key, for the scheme the spec's root `security` names, and the
 * reseller key, for an operation that only another scheme admits (ResellerAPIKey).
 */
export function keyFor(operation: OperationModel): "client" | "reseller" {
  const root = specModel().defaultSecurity;
  return operation.security.some((scheme) => root.includes(scheme)) ? "client" : "reseller";
}

/**
 * The run's needs for an operation's path: the project and the region where its path takes them
 * from the discovery, and writes where a value exists only once a create's task finished.
 */
export function placeNeeds(operation: OperationModel): ("project" | "region" | "writes")[] {
  const sources = pathSources(operation).map(([, from]) => from);
  const discovered = (value: DiscoveredValue) =>
    sources.some((from) => "discovery" in from && from.discovery === value);
  return [
    ...(discovered("projectId") ? (["project"] as const) : []),
    ...(discovered("regionId") ? (["region"] as const) : []),
    ...(needsCreated(operation) ? (["writes"] as const) : []),
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

/** What calling an operation needs of the run: its key (the reseller's) and its path values. */
export function operationNeeds(operation: OperationModel): Need[] {
  return [...(keyFor(operation) === "reseller" ? (["reseller"] as const) : []), ...placeNeeds(operation)];
}
