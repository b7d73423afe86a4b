// The instances the world's instance groups stand for, as the API lists them: records completed
// from the spec's Instance schema, with ids from the simulator's random source. Completing a
// thousand records is most of what building a store costs, and every start and every reset of a
// simulator with the same description, world and random seed builds the same ones: they are built
// once and each store copies a list the first time it reads it, so no store sees another's changes.

import type { Random } from "../random.js";
import { complete } from "./complete.js";
import { EPOCH } from "./default/epoch.js";
import type { JsonObject, World } from "./types.js";

const INSTANCE_SCHEMA = { $ref: "#/components/schemas/Instance" };
/**
 * Flavors of the world's instances (illustrative: the spec names none). Virtual machine flavors, so
 * their hardware is described as the platform's virtual machine flavor shape does (RAM and vCPUs in
 * words); the rest of what the merged spec requires is completed from it.
 */
const INSTANCE_FLAVORS = [
  {
    flavor_id: "g1-standard-2-4",
    flavor_name: "g1-standard-2-4",
    vcpus: 2,
    ram: 4096,
    hardware_description: { ram: "4 GiB", vcpus: "2 vCPU" },
  },
  {
    flavor_id: "g1-standard-4-8",
    flavor_name: "g1-standard-4-8",
    vcpus: 4,
    ram: 8192,
    hardware_description: { ram: "8 GiB", vcpus: "4 vCPU" },
  },
] as const;

/** A store's instances, by project and region. */
export interface InstanceRecords {
  list(projectId: number, regionId: number): JsonObject[];
}

interface Built {
  /** Never handed out: each store reads its own copies. */
  lists: ReadonlyMap<string, readonly JsonObject[]>;
  /** The random source's state once they were drawn, for a store that reuses them to draw on from. */
  randomAfter: number;
}

/** Per description, by what the records are made from; a few, so other worlds and seeds stay bounded. */
const built = new WeakMap<object, Map<string, Built>>();
const KEPT_PER_DESCRIPTION = 4;

/** The instance records of `world`, drawing their ids from `random` as building them would. */
export function instanceRecords(doc: object, world: World, random: Random): InstanceRecords {
  const key = JSON.stringify([
    random.state(),
    world.instances,
    world.regions.map((r) => [r.id, r.display_name]),
  ]);
  let known = built.get(doc);
  if (!known) {
    known = new Map();
    built.set(doc, known);
  }
  let entry = known.get(key);
  if (entry) random.resume(entry.randomAfter);
  else {
    entry = { lists: buildLists(doc, world, random), randomAfter: random.state() };
    known.set(key, entry);
    const oldest = known.keys().next().value;
    if (known.size > KEPT_PER_DESCRIPTION && oldest !== undefined) known.delete(oldest);
  }
  const { lists } = entry;
  const own = new Map<string, JsonObject[]>();
  return {
    list(projectId, regionId) {
      const at = `${projectId}:${regionId}`;
      let list = own.get(at);
      if (!list) {
        list = structuredClone(lists.get(at) ?? []) as JsonObject[];
        own.set(at, list);
      }
      return list;
    },
  };
}

function buildLists(doc: object, world: World, random: Random): Map<string, JsonObject[]> {
  const lists = new Map<string, JsonObject[]>();
  for (const group of world.instances) {
    const key = `${group.project_id}:${group.region_id}`;
    const list = lists.get(key) ?? [];
    for (let i = 0; i < group.count; i++) {
      const n = list.length + 1;
      // Every tenth is stopped and every third on a larger flavor, so the list's filters have
      // something to leave out; created an hour apart, before the world's epoch.
      const stopped = n % 10 === 0;
      const flavor = n % 3 === 0 ? INSTANCE_FLAVORS[1] : INSTANCE_FLAVORS[0];
      const instance: JsonObject = {
        id: random.uuid(),
        name: `${group.name_prefix ?? "instance"}-${String(n).padStart(4, "0")}`,
        created_at: new Date(EPOCH - (group.count - i) * 3_600_000).toISOString(),
        status: stopped ? "SHUTOFF" : "ACTIVE",
        vm_state: stopped ? "stopped" : "active",
        flavor: { ...flavor },
        addresses: {
          "public-net": [{ addr: `198.51.${group.region_id % 256}.${n % 250}`, type: "fixed" }],
        },
        security_groups: [{ name: n % 4 === 0 ? "web" : "default" }],
        tags: [],
        region: world.regions.find((r) => r.id === group.region_id)?.display_name ?? "",
        project_id: group.project_id,
        region_id: group.region_id,
      };
      list.push(complete(doc, INSTANCE_SCHEMA, instance, `instance ${instance.id}`));
    }
    lists.set(key, list);
  }
  return lists;
}
