// The simulated platform's world: everything a request can read or change. A `--seed FILE` is a
// JSON document of this shape (validated against world-schema.ts), and the default world
// (default-world.ts) is one too. Records the API returns are the spec's own component types, from
// the generated `components`; the simulator only adds what it needs beside them (the owning
// client, the project and region a task ran in, when an AI task started). The simulator plays a
// platform that follows the description, so its records hold the fields the description requires
// by inference too (`AsDescribed`), which `components` leaves optional.

import type { AsDescribed, components, operations } from "@platform-api/spec/generated/openapi";

type Schemas = components["schemas"];

/**
 * A record as a world table writes it: the fields `Known` (what the simulator reads) and any of the
 * others; the rest are filled from the record's schema when the world is loaded (complete.ts), so a
 * field the platform's facts add needs no change to a table.
 */
export type Draft<T, Known extends keyof T = never> = Partial<T> & Pick<T, Known>;

/** Any JSON value: what a request body or a record the spec leaves open may hold. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface TokenEntry {
  /** The token as sent, after its security scheme's prefix. */
  token: string;
  /** Which accounts' operations it opens: the client API, or the reseller (admin-portal) API. */
  kind: "client" | "reseller";
  /** Client id for a client token, reseller id for a reseller token. */
  owner_id: number;
  /** A read-only token may read but any write answers 403. */
  read_only?: boolean;
  /** Date-time after which the token answers 401. */
  expires_at?: string | null;
  /** What the token is for, printed by `pnpm sim`. */
  label?: string;
  /** The user the token acts for (a task's `user_id`); the owner's id when not given. */
  user_id?: number;
}

/** The account `GET /iam/clients/me` answers, and the reseller it belongs to. */
export type Client = AsDescribed<"ClientAccount"> & { reseller_id?: number };

export type Project = AsDescribed<"Project"> & { client_id: number };

export type Region = AsDescribed<"Region">;

/** Instances are many, so the world gives how many live in a project and region. */
export interface InstanceGroup {
  project_id: number;
  region_id: number;
  count: number;
  /** Name prefix of the generated instances. */
  name_prefix?: string;
}

/**
 * A volume: the fields of the spec's volume creation body, all set, where it lives and its id.
 * The API never returns a volume record (only the task's `created_resources` names it).
 */
export type Volume = Required<
  Pick<Schemas["CreateVolumeRequest"], "name" | "size" | "type_name" | "source">
> & {
  id: string;
  project_id: number;
  region_id: number;
};

/**
 * A quota of the virtual GPU quota check ("volume_size"): its result has `<name>_limit`,
 * `<name>_requested` and `<name>_usage` of each.
 */
export type RegionalQuotaName = keyof Schemas["VirtualGpuQuotaCheckResult"] extends infer Field
  ? Field extends `${infer Name}_requested`
    ? Name
    : never
  : never;

/** The GPU models with a virtual GPU quota ("gpu_virtual_<model>_count"). */
export type GpuModel = RegionalQuotaName extends infer Name
  ? Name extends `gpu_virtual_${infer Model}_count`
    ? Model
    : never
  : never;

/** A client's limits in one region: the regional limit fields of the spec (`RegionalLimits`). */
export type RegionalLimitValues = Omit<Schemas["RegionalLimits"], "region_id">;

export interface RegionalQuota {
  client_id: number;
  region_id: number;
  limits: RegionalLimitValues;
}

/** Amounts in use that the world does not model as records (floating IPs, GPU cards, …). */
export interface RegionalUsage {
  client_id: number;
  region_id: number;
  usage: Partial<Record<RegionalQuotaName, number>>;
}

/** A virtual GPU flavor: the spec names no flavor, so check_limits needs the world's. */
export interface Flavor {
  name: string;
  gpu_model: GpuModel;
  gpus_per_server: number;
}

type AiTaskOrdering = NonNullable<NonNullable<operations["listAiTasks"]["parameters"]["query"]>["ordering"]>;

/** Ordering keys of the AI task list that are not fields of an AI task (`started_at`). */
export type AiTaskOrderingField = Exclude<AiTaskOrdering, keyof Schemas["AiTask"]>;

/** An AI task, with the date-times it is ordered by that the record itself does not carry. */
export type AiTaskEntry = { client_id: number; record: AsDescribed<"AiTask"> } & Record<
  AiTaskOrderingField,
  string
>;

/** A record that belongs to one client (a protection profile unless said otherwise). */
export interface OwnedRecord<T = Schemas["ProtectionProfile"]> {
  client_id: number;
  record: T;
}

export interface StorageNotificationEntry {
  client_id: number;
  event: Schemas["StorageNotificationEvent"];
}

export interface TaskEntry {
  client_id: number;
  project_id: number;
  region_id: number;
  record: AsDescribed<"Task">;
}

export interface World {
  clients: Client[];
  tokens: TokenEntry[];
  projects: Project[];
  regions: Region[];
  instances: InstanceGroup[];
  volumes: Volume[];
  quotas: RegionalQuota[];
  usage: RegionalUsage[];
  flavors: Flavor[];
  quota_limit_requests: Schemas["QuotaLimitRequest"][];
  ai_tasks: AiTaskEntry[];
  protection_profile_templates: Schemas["ProfileTemplate"][];
  protection_profiles: OwnedRecord<Schemas["ProtectionProfile"]>[];
  storage_notification_events: StorageNotificationEntry[];
  tasks: TaskEntry[];
}
