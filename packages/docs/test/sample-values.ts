// Which example values in the samples name a resource that only the simulator's own answers give,
// and that resource's id there: for each path parameter whose value the spec's fixture registry
// takes from a list (the first item's field) or from a create's finished task (what its
// `created_resources` names), the value the simulator gives. The samples then run against what
// exists there; no operation is named here.

import type { startSimulator } from "@platform-api/simulator";
import {
  authorization,
  checkFixtures,
  createdKeyOf,
  FIXTURES,
  listItemsField,
  loadModel,
  type PathValueSource,
  pollingAdviceFor,
  requireParameter,
  type SpecModel,
  tokenScheme,
} from "@platform-api/spec";
import { exampleValue, isObject, type Json, type Operation, tokenSchemeOf } from "../src/operations.js";

type Simulator = Awaited<ReturnType<typeof startSimulator>>;

/** Calls an operation of the simulator with every path parameter at its example value. */
async function call(
  sim: Simulator,
  bundle: Json,
  op: Operation,
  path: Record<string, string> = {},
): Promise<Json> {
  const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(path[name] ?? String(exampleValue(bundle, requireParameter(op, name, "path")))),
  );
  const answer = await fetch(`${sim.url}${url}`, {
    method: op.method.toUpperCase(),
    headers: {
      [tokenSchemeOf(bundle, op).headerName]: authorization(
        tokenScheme(loadModel(), op.security[0] ?? ""),
        op.reseller ? sim.resellerApiKey : sim.apiKey,
      ),
      ...(op.hasBody ? { "Content-Type": "application/json" } : {}),
    },
    ...(op.hasBody ? { body: JSON.stringify(op.bodyExample ?? {}) } : {}),
  });
  const body: unknown = await answer.json();
  if (!answer.ok || !isObject(body))
    throw new Error(`${op.operationId} answered ${answer.status}: ${JSON.stringify(body)}`);
  return body;
}

/** The simulator's value for a list or created source. */
interface Site {
  sim: Simulator;
  bundle: Json;
  model: SpecModel;
  byId: (operationId: string) => Operation;
}

async function sourceValue(
  { sim, bundle, model, byId }: Site,
  from: Exclude<PathValueSource, { discovery: string }>,
): Promise<unknown> {
  if ("list" in from) {
    const items = (await call(sim, bundle, byId(from.list)))[listItemsField(model, from) ?? ""];
    return Array.isArray(items) && isObject(items[0]) ? items[0][from.field] : undefined;
  }
  const create = byId(from.created);
  const task = create.asyncTask;
  if (!task) return undefined;
  const started = (await call(sim, bundle, create))[task.tasksField];
  const taskId = Array.isArray(started) ? String(started[0]) : "";
  // Past the task's typical end by the simulator's clock, not a real wait.
  const advice = pollingAdviceFor(model, task.taskType);
  sim.advance(advice.known ? advice.interval.typicalDurationSeconds.max * 4 : 3600);
  const poll = byId(task.pollOperationId);
  const polled = await call(sim, bundle, poll, {
    [poll.parameters.find((p) => p.in === "path")?.name ?? ""]: taskId,
  });
  const created = isObject(polled.created_resources) ? polled.created_resources : {};
  const ids = created[createdKeyOf(model, from.created) ?? ""];
  return Array.isArray(ids) ? ids[0] : undefined;
}

/** [example value, the simulator's value] for every path parameter a list or a created resource gives. */
export async function sampleSwaps(
  sim: Simulator,
  bundle: Json,
  model: SpecModel,
  operations: Operation[],
): Promise<[string, string][]> {
  checkFixtures(model, FIXTURES);
  const byId = (id: string): Operation => {
    const found = operations.find((o) => o.operationId === id);
    if (!found) throw new Error(`no operation ${id}`);
    return found;
  };
  const swaps: [string, string][] = [];
  for (const op of operations)
    for (const [name, { from }] of Object.entries(FIXTURES[op.operationId as keyof typeof FIXTURES].path)) {
      if ("discovery" in from) continue;
      const value = await sourceValue({ sim, bundle, model, byId }, from);
      if (value === undefined) throw new Error(`the simulator gave no value for ${op.operationId}'s ${name}`);
      swaps.push([String(exampleValue(bundle, requireParameter(op, name, "path"))), String(value)]);
    }
  return swaps;
}
