// The path values the run has seen so far: what each list and created source of the fixture
// registry gave in the answers the suite received (the discovery's, then every scenario's and
// driver's), kept for the run in the worker every scenario file shares (isolate: false).

import type { OperationModel, PathValueSource } from "@platform-api/spec";
import type { Request } from "../facts/api.js";
import { callOf } from "../facts/operations.js";
import { pathSources, sourceKey, valuesOfExchange } from "../facts/path-values.js";
import type { RunContext } from "../shared/context.js";
import type { ObservedExchange } from "../shared/exchange.js";

let current: { run: RunContext; seen: Map<string, (string | number)[]> } | undefined;

function seenBy(run: RunContext): Map<string, (string | number)[]> {
  if (current?.run !== run) {
    current = { run, seen: new Map() };
    for (const exchange of run.discovery.exchanges) note(current.seen, exchange);
  }
  return current.seen;
}

function note(seen: Map<string, (string | number)[]>, exchange: ObservedExchange): void {
  for (const [key, values] of valuesOfExchange(exchange))
    seen.set(key, [...new Set([...(seen.get(key) ?? []), ...values])]);
}

/** Keeps what an answer of the run gives the registry's list and created sources. */
export function noteExchange(run: RunContext, exchange: ObservedExchange): void {
  note(seenBy(run), exchange);
}

/** The run's value for a source: the discovery's, else the first a list or task answer gave. */
function sourceValue(run: RunContext, from: PathValueSource): string | number | undefined {
  if ("discovery" in from) return run.discovered[from.discovery];
  return seenBy(run).get(sourceKey(from))?.[0];
}

/** Path parameter values of the operation the run knows, by the spec's names (none it has not got). */
export function runPathValues(run: RunContext, operation: OperationModel): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, from] of pathSources(operation)) {
    const value = sourceValue(run, from);
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/**
 * The request of an operation with the run's path values and the key its security asks for, or a
 * skip naming what the run lacks.
 */
export function requestFor(
  api: { run: RunContext; skip(reason: string): never },
  operation: OperationModel,
): Request {
  const call = callOf(operation, runPathValues(api.run, operation));
  if ("request" in call) return call.request;
  return api.skip(`the suite has no value for ${call.missing.join(", ")} of ${operation.operationId}'s path`);
}
