import { badRequest } from "../errors.js";
import type { Store } from "../store.js";
import { quote } from "../validation-message.js";
import { REGIONAL_QUOTA_NAMES } from "../world/default-world.js";
import { type Handler, offsetPage, ok } from "./types.js";

export const listProjects: Handler = ({ caller, store }) => {
  const projects = store.projectsOf(store.clientOf(caller)).map(({ client_id: _, ...project }) => project);
  return ok({ count: projects.length, results: projects });
};

export const listRegions: Handler = ({ query, store }) => ok(offsetPage(store.world.regions, query));

export const listInstances: Handler = ({ params, query, caller, store }) => {
  const project = store.project(store.clientOf(caller), params.project_id);
  const region = store.region(params.region_id);
  return ok(offsetPage(store.instancesIn(project.id, region.id), query));
};

export const createVolume: Handler = ({ params, body, caller, store }) => {
  const clientId = store.clientOf(caller);
  const project = store.project(clientId, params.project_id);
  const region = store.region(params.region_id);
  if (region.state !== "ACTIVE") {
    throw badRequest(
      `Region ${region.id} is ${region.state}; only regions whose state is ACTIVE accept new resources.`,
    );
  }
  if (typeof body.size !== "number" || !Number.isInteger(body.size) || body.size < 1) {
    throw badRequest('Body field "size" is required by the simulator: a whole number of GiB, at least 1.');
  }
  const task = store.createVolume(clientId, project, region, body);
  return ok({ tasks: [task.record.id] });
};

export const getTask: Handler = ({ params, caller, store }) =>
  ok(store.task(store.clientOf(caller), params.task_id).record);

/** The list's shape is not shown by the seed; the simulator answers with the list envelope. */
export const listTasks: Handler = ({ query, caller, store }) => {
  // The platform's bounds of this limit are not shown; a count below 1 asks for nothing sensible.
  if (query.limit !== undefined && query.limit < 1)
    throw badRequest(
      `Query parameter "limit" must be at least 1 (got ${query.limit}). Allowed: an integer of at least 1.`,
    );
  const tasks = store
    .tasksOf(store.clientOf(caller))
    .map((t) => t.record)
    .filter(
      (t) =>
        (query.state === undefined || t.state === query.state) &&
        (query.task_type === undefined || t.task_type === query.task_type),
    )
    .reverse();
  return ok({ count: tasks.length, results: tasks.slice(0, query.limit ?? tasks.length) });
};

/**
 * Requested amounts follow the simulator's own rules (documented in its README), since the seed
 * does not show how the platform derives them: each server needs the flavor's GPU cards, its
 * volumes and one external IP per `external` interface and one floating IP per `floating`
 * interface; each distinct `baremetal_network` interface name needs one network for the cluster.
 */
export const checkVirtualGpuClusterLimits: Handler = ({ params, body, caller, store }) => {
  const clientId = store.clientOf(caller);
  store.project(clientId, params.project_id);
  const region = store.region(params.region_id);
  const flavor = store.world.flavors.find((f) => f.name === body.flavor);
  if (!flavor) {
    throw badRequest(
      `Body field "flavor" is ${quote(body.flavor)}, which is not a virtual GPU flavor; flavors: ${store.world.flavors.map((f) => f.name).join(", ")}.`,
    );
  }
  if (body.servers_count < 1)
    throw badRequest(`Body field "servers_count" must be at least 1 (got ${body.servers_count}).`);
  const servers: number = body.servers_count;
  const interfaces: { type?: string; name?: string }[] = body.servers_settings?.interfaces ?? [];
  const volumes: { size?: number }[] = body.servers_settings?.volumes ?? [];
  const ofType = (type: string) => interfaces.filter((i) => i.type === type);

  const requested: Record<string, number> = Object.fromEntries(REGIONAL_QUOTA_NAMES.map((name) => [name, 0]));
  requested[`gpu_virtual_${flavor.gpu_model}_count`] = servers * flavor.gpus_per_server;
  requested.volume_count = servers * volumes.length;
  requested.volume_size = servers * volumes.reduce((sum, v) => sum + (v.size ?? 0), 0);
  requested.external_ip_count = servers * ofType("external").length;
  requested.floating_count = servers * ofType("floating").length;
  requested.baremetal_network_count = new Set(ofType("baremetal_network").map((i) => i.name)).size;

  const tooLarge = Object.keys(requested).find((name) => !Number.isSafeInteger(requested[name]));
  if (tooLarge)
    throw badRequest(
      `Body fields "servers_count" and "servers_settings" ask for more ${tooLarge} than the simulator counts exactly (at most ${Number.MAX_SAFE_INTEGER}).`,
    );
  const usage = usageOf(store, clientId, region.id);
  const limits = store.quotaLimits(clientId, region.id);
  const result: Record<string, number> = {};
  for (const name of REGIONAL_QUOTA_NAMES) {
    result[`${name}_limit`] = limits[`${name}_limit`] ?? 0;
    result[`${name}_requested`] = requested[name] ?? 0;
    result[`${name}_usage`] = usage[name] ?? 0;
  }
  return ok(result);
};

function usageOf(store: Store, clientId: number, regionId: number): Record<string, number> {
  const volumes = store.volumesOfClient(clientId, regionId);
  return {
    ...store.recordedUsage(clientId, regionId),
    volume_count: volumes.count,
    volume_size: volumes.size,
  };
}
