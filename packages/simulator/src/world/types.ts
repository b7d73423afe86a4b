// The simulated platform's world: everything a request can read or change. A `--seed FILE` is a
// JSON document of this shape (validated against world-schema.ts, whose records are the spec's own
// schemas), and the default world (default-world.ts) is one too.

/** Records exactly as the API returns them; the simulator keeps its bookkeeping beside them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface TokenEntry {
  /** The token as sent after "APIKey ". */
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
}

export interface Client {
  id: number;
  email: string;
  status: string;
  reseller_id?: number;
}

export interface Project {
  id: number;
  name: string;
  is_default: boolean;
  state: string;
  client_id: number;
}

export interface Region {
  id: number;
  display_name: string;
  state: string;
  access_level: string;
  zone: string;
  has_kvm: boolean;
  has_baremetal: boolean;
  has_k8s: boolean;
  has_dbaas: boolean;
  available_volume_types: string[];
}

/** Instances are many, so the world gives how many live in a project and region. */
export interface InstanceGroup {
  project_id: number;
  region_id: number;
  count: number;
  /** Name prefix of the generated instances. */
  name_prefix?: string;
}

export interface Volume {
  id: string;
  project_id: number;
  region_id: number;
  name: string;
  size: number;
  type_name: string;
  source: string;
}

/** The quota fields of one client in one region (the seed's regional limit names). */
export interface RegionalQuota {
  client_id: number;
  region_id: number;
  limits: Record<string, number>;
}

/** Amounts in use that the world does not model as records (floating IPs, GPU cards, …). */
export interface RegionalUsage {
  client_id: number;
  region_id: number;
  usage: Record<string, number>;
}

export interface Flavor {
  name: string;
  gpu_model: "a100" | "h100" | "h200" | "l40s";
  gpus_per_server: number;
}

export interface AiTaskEntry {
  client_id: number;
  /** When the task started (the default order key, not part of the record). */
  started_at: string;
  record: JsonObject;
}

export interface OwnedRecord {
  client_id: number;
  record: JsonObject;
}

export interface StorageNotificationEntry {
  client_id: number;
  event: JsonObject;
}

export interface TaskEntry {
  client_id: number;
  project_id: number;
  region_id: number;
  record: JsonObject;
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
  quota_limit_requests: JsonObject[];
  ai_tasks: AiTaskEntry[];
  protection_profile_templates: JsonObject[];
  protection_profiles: OwnedRecord[];
  storage_notification_events: StorageNotificationEntry[];
  tasks: TaskEntry[];
}
