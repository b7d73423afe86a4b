import { platformFactsOf } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import { badRequest } from "../errors.js";
import type { Store } from "../store.js";
import { quote } from "../validation-message.js";
import { gpuQuotaName } from "../world/spec-facts.js";
import type { RegionalQuotaName } from "../world/types.js";
import { type Handler, offsetPage } from "./types.js";

type QuotaCheckResult = components["schemas"]["VirtualGpuQuotaCheckResult"];

export const listProjects: Handler<"listProjects"> = ({ query, caller, store, select }) => {
  const projects = select(
    store
      .projectsOf(store.clientOf(caller))
      .map((project) => store.served("Project", project, ["client_id"])),
  );
  return { status: 200, body: { count: projects.length, results: projects.slice(query.offset) } };
};

export const listRegions: Handler<"listRegions"> = ({ query, store, select }) => ({
  status: 200,
  body: offsetPage(select(store.world.regions), query),
});

export const listInstances: Handler<"listInstances"> = ({ params, query, caller, store, select }) => {
  const project = store.project(store.clientOf(caller), params.project_id);
  const region = store.region(params.region_id);
  return { status: 200, body: offsetPage(select(store.instancesIn(project.id, region.id)), query) };
};

export const createVolume: Handler<"createVolume"> = ({ params, body, caller, store }) => {
  const clientId = store.clientOf(caller);
  const project = store.project(clientId, params.project_id);
  const region = store.region(params.region_id);
  if (region.state !== "ACTIVE") {
    throw badRequest(
      `Region ${region.id} is ${region.state}; only regions whose state is ACTIVE accept new resources.`,
    );
  }
  // Which sources need a size is the spec's (its allOf if/then); the route has checked it.
  const task = store.createVolume(clientId, store.userOf(caller), project, region, body);
  return { status: 200, body: { tasks: [task.record.id] } };
};

export const getTask: Handler<"getTask"> = ({ params, caller, store }) => ({
  status: 200,
  body: store.task(store.clientOf(caller), params.task_id).record,
});

/**
 * The list's shape is not shown by the seed; the simulator answers with the list envelope the
 * platform documents. The selection and order are the query rules' (query.ts, query-rules.ts).
 */
export const listTasks: Handler<"listTasks"> = ({ query, caller, store, select }) => {
  // The platform's bounds of this limit are not shown; a count below 1 asks for nothing sensible.
  if (query.limit < 1)
    throw badRequest(
      `Query parameter "limit" must be at least 1 (got ${query.limit}). Allowed: an integer of at least 1.`,
    );
  const tasks = select(store.tasksOf(store.clientOf(caller)).map((t) => t.record));
  return { status: 200, body: offsetPage(tasks, query) };
};

/** The platform's facts of an interface of check_limits' body (spec/platform-facts.yaml), by field. */
function interfaceFact(field: string): readonly string[] {
  const fact = platformFactsOf("checkVirtualGpuClusterLimits").find(
    (f) => f.kind === "field" && f.at === "request" && f.field === `servers_settings.interfaces[].${field}`,
  );
  const values = fact?.schema?.enum;
  if (!Array.isArray(values))
    throw new Error(`spec/platform-facts.yaml gives no values of check_limits' interface ${field}`);
  return values.map(String);
}
/** The floating IP sources that ask for a new address, and the interface types that take a floating IP (all but external). */
const FLOATING_IP_SOURCES = interfaceFact("floating_ip.source");
const INTERFACE_TYPES = interfaceFact("type");
/** The interface type with an address of its own (the seed's example uses it; the platform documents it). */
const EXTERNAL = "external";
if (!INTERFACE_TYPES.includes(EXTERNAL))
  throw new Error(`spec/platform-facts.yaml no longer lists the interface type ${EXTERNAL} of check_limits`);
const FLOATING_IP_TYPES = INTERFACE_TYPES.filter((type) => type !== EXTERNAL);

const asksForFloatingIp = (networkInterface: { type?: string }): boolean => {
  const floatingIp = (networkInterface as { floating_ip?: { source?: unknown } }).floating_ip;
  return (
    FLOATING_IP_TYPES.includes(String(networkInterface.type)) &&
    FLOATING_IP_SOURCES.includes(String(floatingIp?.source))
  );
};

/**
 * Requested amounts follow the simulator's own rules (documented in its README), since the seed
 * does not show how the platform derives them: each server needs the flavor's GPU cards, its
 * volumes and one external IP per `external` interface and one floating IP per interface that asks
 * for one as the platform's published descriptions document it (`floating_ip.source`, on the
 * interface types that take one: spec/platform-facts.yaml); each distinct `baremetal_network`
 * interface name needs one network for the cluster.
 */
export const checkVirtualGpuClusterLimits: Handler<"checkVirtualGpuClusterLimits"> = ({
  params,
  body,
  caller,
  store,
}) => {
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
  const servers = body.servers_count;
  const interfaces = body.servers_settings?.interfaces ?? [];
  const volumes = body.servers_settings?.volumes ?? [];
  const ofType = (type: string) => interfaces.filter((i) => i.type === type);

  const requested: Partial<Record<RegionalQuotaName, number>> = {
    [gpuQuotaName(flavor.gpu_model)]: servers * flavor.gpus_per_server,
    volume_count: servers * volumes.length,
    volume_size: servers * volumes.reduce((sum, v) => sum + (v.size ?? 0), 0),
    external_ip_count: servers * ofType(EXTERNAL).length,
    floating_count: servers * interfaces.filter(asksForFloatingIp).length,
    baremetal_network_count: new Set(ofType("baremetal_network").map((i) => i.name)).size,
  };
  const tooLarge = store.quotaNames.find((name) => !Number.isSafeInteger(requested[name] ?? 0));
  if (tooLarge)
    throw badRequest(
      `Body fields "servers_count" and "servers_settings" ask for more ${tooLarge} than the simulator counts exactly (at most ${Number.MAX_SAFE_INTEGER}).`,
    );
  const usage = usageOf(store, clientId, region.id);
  const limits = store.quotaLimits(clientId, region.id);
  const result: Partial<QuotaCheckResult> = {};
  for (const name of store.quotaNames) {
    result[`${name}_limit`] = limits[`${name}_limit`] ?? 0;
    result[`${name}_requested`] = requested[name] ?? 0;
    result[`${name}_usage`] = usage[name] ?? 0;
  }
  // Every quota of the served description's result is set above; the type cannot see the loop.
  return { status: 200, body: result as QuotaCheckResult };
};

function usageOf(
  store: Store,
  clientId: number,
  regionId: number,
): Partial<Record<RegionalQuotaName, number>> {
  const volumes = store.volumesOfClient(clientId, regionId);
  return {
    ...store.recordedUsage(clientId, regionId),
    volume_count: volumes.count,
    volume_size: volumes.size,
  };
}
