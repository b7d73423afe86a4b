// Reads and checks a world file (`--seed FILE`): schema first (records against the spec's own
// schemas), then the references between tables, so a bad seed fails at start with its location.

import { readFileSync } from "node:fs";
import { createSpecAjv } from "@platform-api/spec";
import { completeWorld } from "./complete.js";
import type { World } from "./types.js";
import { worldSchema } from "./world-schema.js";

const OPTIONAL_TABLES = [
  "instances",
  "volumes",
  "quotas",
  "usage",
  "flavors",
  "quota_limit_requests",
  "ai_tasks",
  "protection_profile_templates",
  "protection_profiles",
  "storage_notification_events",
  "tasks",
] as const;

export function loadWorldFile(file: string, doc: object): World {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`Cannot read the seed file ${file}: ${(error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`The seed file ${file} is not JSON: ${(error as Error).message}`);
  }
  return checkWorld(value, doc, `seed file ${file}`);
}

/**
 * The world's validator of each description, compiled once: compiling it against the whole
 * description costs more than checking a world, and a process may check many (tests do).
 */
const validators = new WeakMap<object, WorldValidator>();
type WorldValidator = ReturnType<typeof compileWorldValidator>;
const compileWorldValidator = (doc: object) => createSpecAjv(doc).compile<World>(worldSchema(doc));

function worldValidator(doc: object): WorldValidator {
  let validate = validators.get(doc);
  if (!validate) {
    validate = compileWorldValidator(doc);
    validators.set(doc, validate);
  }
  return validate;
}

export function checkWorld(given: unknown, doc: object, source = "world"): World {
  const validate = worldValidator(doc);
  // Completed first: a field the spec gained since the file was written is filled, not refused.
  let value = given;
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    try {
      value = completeWorld(doc, value as Partial<World>);
    } catch (error) {
      throw new Error(`The ${source} is not a valid world: ${(error as Error).message}`);
    }
  }
  if (!validate(value)) {
    const problems = (validate.errors ?? [])
      .slice(0, 8)
      .map(
        (e) =>
          `${e.instancePath || "/"} ${e.message}${e.keyword === "additionalProperties" ? ` (${JSON.stringify(e.params.additionalProperty)})` : ""}`,
      );
    throw new Error(`The ${source} is not a valid world: ${problems.join("; ")}`);
  }
  const world = structuredClone(value) as World;
  for (const table of OPTIONAL_TABLES) (world[table] as unknown[]) ??= [];
  const problems = referenceProblems(world);
  if (problems.length > 0)
    throw new Error(`The ${source} is not a valid world: ${problems.slice(0, 8).join("; ")}`);
  return world;
}

function referenceProblems(world: World): string[] {
  const problems: string[] = [];
  const clients = new Set(world.clients.map((c) => c.id));
  const resellers = new Set(
    world.clients.flatMap((c) => (c.reseller_id === undefined ? [] : [c.reseller_id])),
  );
  const projects = new Set(world.projects.map((p) => p.id));
  const regions = new Set(world.regions.map((r) => r.id));
  const duplicates = (name: string, ids: unknown[]) => {
    const seen = new Set();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`${name} id ${JSON.stringify(id)} appears twice`);
      seen.add(id);
    }
  };
  duplicates(
    "client",
    world.clients.map((c) => c.id),
  );
  duplicates(
    "project",
    world.projects.map((p) => p.id),
  );
  duplicates(
    "region",
    world.regions.map((r) => r.id),
  );
  duplicates(
    "token",
    world.tokens.map((t) => t.token),
  );
  world.tokens.forEach((t, i) => {
    if (t.kind === "client" && !clients.has(t.owner_id))
      problems.push(`/tokens/${i} names client ${t.owner_id}, which is not in clients`);
    if (t.kind === "reseller" && !resellers.has(t.owner_id))
      problems.push(`/tokens/${i} names reseller ${t.owner_id}, but no client has that reseller_id`);
  });
  world.projects.forEach((p, i) => {
    if (!clients.has(p.client_id))
      problems.push(`/projects/${i} belongs to client ${p.client_id}, which is not in clients`);
  });
  const placed = (table: string, rows: { project_id: number; region_id: number }[]) =>
    rows.forEach((row, i) => {
      if (!projects.has(row.project_id))
        problems.push(`/${table}/${i} names project ${row.project_id}, which is not in projects`);
      if (!regions.has(row.region_id))
        problems.push(`/${table}/${i} names region ${row.region_id}, which is not in regions`);
    });
  placed("instances", world.instances);
  placed("volumes", world.volumes);
  placed("tasks", world.tasks);
  return problems;
}
