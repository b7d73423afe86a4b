// Valid path values of an operation, from a world: for each path parameter, the spec's fixture
// registry names the world collection that holds valid values; the record taken is the client's
// own (its default project first), in a usable state, in the place the operation's earlier path
// values name (a volume of that project and region). No test keeps a table of its own.

import { checkFixtures, FIXTURES, loadBundle, loadModel, type OperationModel } from "@platform-api/spec";
import type { World } from "../src/index.js";
import { componentSchema } from "../src/world/spec-facts.js";

type Row = Record<string, unknown>;

checkFixtures(loadModel(), FIXTURES);

/** The states the spec shows a region in: the only ones to use ("use only regions whose state is …"). */
const USABLE_STATES = (componentSchema(loadBundle(), "Region").properties as { state: { enum: unknown[] } })
  .state.enum;

const idOf = (row: Row): unknown => (row.record as Row | undefined)?.id ?? row.id;

/** The client's own: by its client_id, else by its project's. */
function ownedBy(world: World, clientId: number): (row: Row) => boolean {
  const projects = world.projects.filter((p) => p.client_id === clientId).map((p) => p.id);
  return (row) =>
    "client_id" in row
      ? row.client_id === clientId
      : !("project_id" in row) || projects.includes(row.project_id as number);
}

/** Valid values of the operation's path parameters in the world, by name; throws naming what has none. */
export function worldPathValues(
  world: World,
  operation: OperationModel,
  clientId: number,
): Record<string, string | number> {
  const owned = ownedBy(world, clientId);
  const values: Record<string, string | number> = {};
  const entry = FIXTURES[operation.operationId as keyof typeof FIXTURES];
  for (const { name } of operation.parameters.filter((p) => p.in === "path")) {
    const collection = entry.path[name]?.world ?? "";
    const rows: unknown = world[collection as keyof World];
    if (!Array.isArray(rows))
      throw new Error(
        `${operation.operationId}'s ${name}: the fixture names ${collection}, no collection of the world.`,
      );
    const fits = (rows as Row[]).filter(
      (row) =>
        owned(row) &&
        (typeof row.state !== "string" || USABLE_STATES.includes(row.state)) &&
        Object.entries(values).every(([key, value]) => !(key in row) || row[key] === value),
    );
    const row = fits.find((r) => r.is_default === true) ?? fits[0];
    const id = row && idOf(row);
    if (typeof id !== "string" && typeof id !== "number")
      throw new Error(
        `${operation.operationId}'s ${name}: the world's ${collection} has no record the client may use.`,
      );
    values[name] = id;
  }
  return values;
}
