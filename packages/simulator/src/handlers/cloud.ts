import { platformFactsOf } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import { badRequest } from "../errors.js";
import type { Store } from "../store.js";
import { quote } from "../validation-message.js";
import { gpuQuotaName } from "../world/spec-facts.js";
import type { RegionalQuotaName } from "../world/types.js";
import { type Handler, offsetPage, type QueryOf } from "./types.js";

type QuotaCheckResult = components["schemas"]["VirtualGpuQuotaCheckResult"];
type TaskState = components["schemas"]["TaskState"];

export const listProjects: Handler<"listProjects"> = ({ caller, store }) => {
  const projects = store.projectsOf(store.clientOf(caller)).map(({ client_id: _, ...project }) => project);
  return { status: 200, body: { count: projects.length, results: projects } };
};

export const listRegions: Handler<"listRegions"> = ({ query, store }) => ({
  status: 200,
  body: offsetPage(store.world.regions, query),
});

export const listInstances: Handler<"listInstances"> = ({ params, query, caller, store }) => {
  const project = store.project(store.clientOf(caller), params.project_id);
  const region = store.region(params.region_id);
  return { status: 200, body: offsetPage(store.instancesIn(project.id, region.id), query) };
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
  const { size } = body;
  if (size === undefined || !Number.isInteger(size) || size < 1) {
    throw badRequest('Body field "size" is required by the simulator: a whole number of GiB, at least 1.');
  }
  const task = store.createVolume(clientId, project, region, { ...body, size });
  return { status: 200, body: { tasks: [task.record.id] } };
};

export const getTask: Handler<"getTask"> = ({ params, caller, store }) => ({
  status: 200,
  body: store.task(store.clientOf(caller), params.task_id).record,
});

/**
 * The query the task list takes from the platform's published descriptions besides the spec's
 * (spec/platform-facts.yaml; the route accepts them, route-schemas.ts): the platform's clients page
 * it with offset, repeat state, and select by project and region.
 */
type TaskListQuery = Omit<QueryOf<"listTasks">, "state"> & {
  state?: TaskState | TaskState[];
  offset?: number;
  project_id?: number[];
  region_id?: number[];
  order_by?: "asc" | "desc";
  /** The older name of order_by. */
  sorting?: "asc" | "desc";
  from_timestamp?: string;
  to_timestamp?: string;
  is_acknowledged?: boolean;
};

/** A date-time's instant; a time without a zone offset is the platform's UTC (as created_on is written). */
const instant = (text: string) => Date.parse(/(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`);

/**
 * The list's shape is not shown by the seed; the simulator answers with the list envelope the
 * platform documents. Every published selection is honoured but `is_acknowledged`, which is
 * accepted: the simulator's tasks have no acknowledgement to select by.
 */
export const listTasks: Handler<"listTasks"> = ({ query: described, rawQuery, caller, store }) => {
  const query = described as TaskListQuery;
  // The platform's bounds of this limit are not shown; a count below 1 asks for nothing sensible.
  if (query.limit !== undefined && query.limit < 1)
    throw badRequest(
      `Query parameter "limit" must be at least 1 (got ${query.limit}). Allowed: an integer of at least 1.`,
    );
  const states = query.state === undefined ? undefined : [query.state].flat();
  const from = query.from_timestamp === undefined ? undefined : instant(query.from_timestamp);
  const to = query.to_timestamp === undefined ? undefined : instant(query.to_timestamp);
  // order_by when sent, else the deprecated sorting when sent, else order_by's default (filled in).
  const sent = new URLSearchParams(rawQuery);
  const order = sent.has("order_by") || !sent.has("sorting") ? query.order_by : query.sorting;
  const tasks = store
    .tasksOf(store.clientOf(caller))
    .filter(
      (t) =>
        (query.project_id === undefined || query.project_id.includes(t.project_id)) &&
        (query.region_id === undefined || query.region_id.includes(t.region_id)),
    )
    .map((t) => t.record)
    .filter((t) => {
      const created = instant(t.created_on);
      return (
        (states === undefined || states.includes(t.state)) &&
        (query.task_type === undefined || t.task_type === query.task_type) &&
        (from === undefined || created >= from) &&
        (to === undefined || created <= to)
      );
    });
  // Kept in creation order: the newest last, so descending is the reverse.
  if (order !== "asc") tasks.reverse();
  const offset = query.offset ?? 0;
  return {
    status: 200,
    body: { count: tasks.length, results: tasks.slice(offset, offset + (query.limit ?? tasks.length)) },
  };
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
