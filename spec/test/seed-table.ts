// Every operation and every field the seed states, written from the seed by hand. The spec test
// holds the bundled description to this table: nothing missing, nothing with another type, no
// operation the seed does not have, and every field required by inference marked as such.
import { globalLimits, regionalLimits, virtualGpuQuotaCheckResult } from "./seed-limits.js";

/** JSON type as the seed states it: "integer", "string|null", … or "any" where no type is given. */
export type TypeName = string;

export interface FieldFacts {
  type: TypeName;
  format?: "uuid" | "date-time" | "email";
  /** a date-time without zone offset, modelled as a pattern */
  noOffset?: true;
  enum?: readonly (string | number)[];
  required?: boolean;
  /**
   * Required by the description's inference only: the seed lists the field (a resource's table,
   * or "the response has …") without saying it is always present. The seed states a field as
   * required only with a "Required" column saying yes or the word "required" itself (the quota
   * list: "`count` and `results`, both required"), or by saying what every answer holds (the
   * instance list "returns count 0 and an empty results array"; a write "returns task
   * identifiers"; every `created_resources` key not created "holds an empty array").
   */
  inferred?: true;
  deprecated?: true;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  items?: FieldFacts;
  object?: SchemaFacts;
}

export interface SchemaFacts {
  /** the seed says unlisted properties are rejected */
  closed?: true;
  fields: Record<string, FieldFacts>;
}

export interface ParameterFacts extends FieldFacts {
  in: "path" | "query";
}

export interface OperationFacts {
  method: "get" | "post" | "put";
  path: string;
  security: "APIKey" | "ResellerAPIKey";
  parameters: Record<string, ParameterFacts>;
  body?: SchemaFacts;
  /** success status → body facts, "unspecified" (shape not shown) or "none" (no body) */
  success: Record<string, SchemaFacts | "unspecified" | "none">;
  errors: readonly number[];
}

const TASK_STATES = ["NEW", "RUNNING", "FINISHED", "ERROR"] as const;
const QUOTA_REQUEST_STATUSES = ["done", "in progress", "rejected"] as const;
const AI_TASK_NAMES = ["transcription", "content-moderation"] as const;
const AI_TASK_STATUSES = [
  "FAILURE",
  "PENDING",
  "RECEIVED",
  "RETRY",
  "REVOKED",
  "STARTED",
  "SUCCESS",
] as const;
const EVENT_NAMES = [
  "reaching_used_space",
  "reaching_files_quantity",
  "reaching_used_traffic",
  "reaching_used_requests",
] as const;

/** Listed by the seed without a word on presence: required by the description's inference only. */
const inferred = (facts: FieldFacts): FieldFacts => ({ ...facts, required: true, inferred: true });

const idList = (): FieldFacts => ({ type: "array", required: true, items: { type: "string" } });

export const task: SchemaFacts = {
  fields: {
    id: inferred({ type: "string", format: "uuid" }),
    task_type: inferred({ type: "string" }),
    state: inferred({ type: "string", enum: TASK_STATES }),
    error: inferred({ type: "string|null" }),
    created_on: inferred({ type: "string", noOffset: true }),
    finished_on: { type: "string|null", noOffset: true },
    created_resources: inferred({
      type: "object|null",
      object: {
        fields: {
          instances: idList(),
          volumes: idList(),
          floatingips: idList(),
          networks: idList(),
        },
      },
    }),
  },
};

export const project: SchemaFacts = {
  fields: {
    id: inferred({ type: "integer" }),
    name: inferred({ type: "string" }),
    is_default: inferred({ type: "boolean" }),
    state: inferred({ type: "string" }),
  },
};

export const region: SchemaFacts = {
  fields: {
    id: inferred({ type: "integer" }),
    display_name: inferred({ type: "string" }),
    state: inferred({ type: "string" }),
    access_level: inferred({ type: "string", enum: ["core", "edge"] }),
    zone: inferred({ type: "string" }),
    has_kvm: inferred({ type: "boolean" }),
    has_baremetal: inferred({ type: "boolean" }),
    has_k8s: inferred({ type: "boolean" }),
    has_dbaas: inferred({ type: "boolean" }),
    available_volume_types: inferred({ type: "array", items: { type: "string" } }),
  },
};

export const account: SchemaFacts = {
  fields: {
    id: inferred({ type: "integer" }),
    email: inferred({ type: "string", format: "email" }),
    status: inferred({ type: "string" }),
  },
};

export const instance: SchemaFacts = { fields: {} };

/**
 * The offset list envelope: "Offset-paginated list responses have" `count` and `results`, which
 * lists them; the quota list says they are required and the instance list that even an empty
 * answer holds both.
 */
const listEnvelope = (item: SchemaFacts, presence: "stated" | "inferred"): SchemaFacts => {
  const count: FieldFacts = { type: "integer", minimum: 0 };
  const results: FieldFacts = { type: "array", items: { type: "object", object: item } };
  return {
    fields:
      presence === "stated"
        ? { count: { ...count, required: true }, results: { ...results, required: true } }
        : { count: inferred(count), results: inferred(results) },
  };
};

export const quotaLimitRequest: SchemaFacts = {
  fields: {
    id: { type: "integer", required: true },
    client_id: { type: "integer", required: true },
    requested_limits: {
      type: "object",
      required: true,
      object: {
        fields: {
          global_limits: { type: "object", object: globalLimits },
          regional_limits: { type: "array", items: { type: "object", object: regionalLimits } },
        },
      },
    },
    description: { type: "string|null", required: true },
    status: { type: "string", enum: QUOTA_REQUEST_STATUSES, required: true },
    created_at: { type: "string", format: "date-time", required: true },
    updated_at: { type: "string|null", format: "date-time", required: true },
  },
};

export const aiTask: SchemaFacts = {
  fields: {
    task_id: inferred({ type: "string", format: "uuid" }),
    task_name: inferred({ type: "string", enum: AI_TASK_NAMES }),
    task_data: inferred({ type: "object" }),
    progress: inferred({ type: "integer", minimum: 0, maximum: 100 }),
    status: inferred({ type: "string", enum: AI_TASK_STATUSES }),
  },
};

export const aiTaskList: SchemaFacts = {
  fields: {
    // "integer, default 0": the seed says what an answer without it means, so it may be absent.
    count: { type: "integer", default: 0 },
    next: inferred({ type: "string|null" }),
    previous: inferred({ type: "string|null" }),
    results: inferred({ type: "array", items: { type: "object", object: aiTask } }),
  },
};

const templateField: SchemaFacts = {
  fields: {
    id: { type: "integer" },
    name: { type: "string" },
    description: { type: "string" },
    field_type: { type: "any" },
    required: { type: "boolean" },
    default: { type: "string" },
    validation_schema: { type: "any" },
  },
};

const profileTemplate: SchemaFacts = {
  fields: {
    id: { type: "integer" },
    name: { type: "string" },
    description: { type: "string" },
    fields: { type: "array", items: { type: "object", object: templateField } },
    base_template: { type: "integer" },
    version: { type: "string", format: "uuid" },
    created: { type: "string", format: "date-time" },
    allow_merge: { type: "boolean" },
  },
};

const profileField: SchemaFacts = {
  fields: {
    id: { type: "integer" },
    name: { type: "string" },
    description: { type: "string" },
    field_type: { type: "string" },
    required: { type: "boolean" },
    default: { type: "string" },
    value: { type: "string" },
    field_value: { type: "any" },
    base_field: { type: "integer" },
    validation_schema: { type: "any" },
  },
};

export const protectionProfile: SchemaFacts = {
  fields: {
    id: { type: "integer", required: true },
    profile_template: { type: "object", required: true, object: profileTemplate },
    ip_address: { type: "string", required: true },
    fields: { type: "array", required: true, items: { type: "object", object: profileField } },
    site: { type: "string", required: true },
    options: {
      type: "object",
      required: true,
      object: {
        fields: { bgp: { type: "boolean" }, active: { type: "boolean" }, price: { type: "string" } },
      },
    },
    protocols: { type: "array", required: true, items: { type: "object" } },
    status: { type: "object", required: true },
    plan: { type: "string", required: true },
    provider: { type: "string", enum: ["sifter"] },
    management_type: { type: "string", enum: ["static", "dynamic"] },
  },
};

export const protectionProfileUpdate: SchemaFacts = {
  fields: {
    fields: {
      type: "array",
      required: true,
      items: {
        type: "object",
        object: {
          fields: {
            value: { type: "string" },
            field_value: { type: "any" },
            base_field: { type: "integer" },
          },
        },
      },
    },
    profile_template: { type: "integer|null" },
    ip_address: { type: "string|null" },
    provider: { type: "string", enum: ["sifter"] },
    site: { type: "string" },
    management_type: { type: "string", enum: ["static", "dynamic"] },
  },
};

export const storageNotificationEvent: SchemaFacts = {
  fields: {
    name: { type: "string", enum: EVENT_NAMES, required: true },
    bucket_name: { type: "string" },
    bytes: { type: "integer" },
    count: { type: "integer" },
    storage_name: { type: "string" },
    uuid: { type: "string" },
  },
};

export const createVolumeRequest: SchemaFacts = {
  fields: {
    name: { type: "string" },
    source: { type: "string" },
    type_name: { type: "string" },
    size: { type: "integer" },
  },
};

export const virtualGpuQuotaCheckRequest: SchemaFacts = {
  fields: {
    flavor: { type: "string", required: true },
    servers_count: { type: "integer", required: true },
    servers_settings: {
      type: "object",
      object: {
        fields: {
          interfaces: {
            type: "array",
            items: {
              type: "object",
              object: {
                fields: {
                  type: { type: "string" },
                  ip_family: { type: "string" },
                  name: { type: "string" },
                  security_groups: {
                    type: "array",
                    items: { type: "object", object: { fields: { id: { type: "string" } } } },
                  },
                },
              },
            },
          },
          volumes: {
            type: "array",
            items: {
              type: "object",
              object: { fields: { size: { type: "integer" }, source: { type: "string" } } },
            },
          },
        },
      },
    },
  },
};

export const taskIdList: SchemaFacts = {
  fields: { tasks: { type: "array", required: true, items: { type: "string", format: "uuid" } } },
};

const limit: ParameterFacts = { in: "query", type: "integer", minimum: 1, maximum: 1000, default: 1000 };
const offset: ParameterFacts = { in: "query", type: "integer", minimum: 0, default: 0 };
const projectId: ParameterFacts = { in: "path", type: "integer", required: true };
const regionId: ParameterFacts = { in: "path", type: "integer", required: true };

/** Keyed by "METHOD path" exactly as the seed's Endpoints part names them (DDoS under /security/iaas). */
export const operations: Record<string, OperationFacts> = {
  "GET /cloud/v1/tasks/{task_id}": {
    method: "get",
    path: "/cloud/v1/tasks/{task_id}",
    security: "APIKey",
    parameters: { task_id: { in: "path", type: "string", format: "uuid", required: true } },
    success: { "200": task },
    errors: [401, 403, 404, 429, 500],
  },
  "GET /cloud/v1/tasks": {
    method: "get",
    path: "/cloud/v1/tasks",
    security: "APIKey",
    parameters: {
      limit: { in: "query", type: "integer" },
      state: { in: "query", type: "string", enum: TASK_STATES },
      task_type: { in: "query", type: "string" },
    },
    success: { "200": "unspecified" },
    errors: [400, 401, 403, 429, 500],
  },
  "GET /cloud/reseller/v1/limits_request": {
    method: "get",
    path: "/cloud/reseller/v1/limits_request",
    security: "ResellerAPIKey",
    parameters: {
      client_id: { in: "query", type: "integer" },
      limit,
      offset,
      status: { in: "query", type: "array", items: { type: "string", enum: QUOTA_REQUEST_STATUSES } },
    },
    success: { "200": listEnvelope(quotaLimitRequest, "stated") },
    errors: [400, 401, 403, 429, 500],
  },
  "GET /iam/clients/me": {
    method: "get",
    path: "/iam/clients/me",
    security: "APIKey",
    parameters: {},
    success: { "200": account },
    errors: [401, 403, 429, 500],
  },
  "GET /cloud/v1/projects": {
    method: "get",
    path: "/cloud/v1/projects",
    security: "APIKey",
    parameters: {},
    success: { "200": listEnvelope(project, "inferred") },
    errors: [401, 403, 429, 500],
  },
  "GET /cloud/v1/regions": {
    method: "get",
    path: "/cloud/v1/regions",
    security: "APIKey",
    parameters: { limit, offset },
    success: { "200": listEnvelope(region, "inferred") },
    errors: [400, 401, 403, 429, 500],
  },
  "GET /cloud/v1/instances/{project_id}/{region_id}": {
    method: "get",
    path: "/cloud/v1/instances/{project_id}/{region_id}",
    security: "APIKey",
    parameters: { project_id: projectId, region_id: regionId, limit, offset },
    success: { "200": listEnvelope(instance, "stated") },
    errors: [400, 401, 403, 404, 429, 500],
  },
  "POST /cloud/v1/volumes/{project_id}/{region_id}": {
    method: "post",
    path: "/cloud/v1/volumes/{project_id}/{region_id}",
    security: "APIKey",
    parameters: { project_id: projectId, region_id: regionId },
    body: createVolumeRequest,
    // The seed lists 200 and 201 as success without saying which this operation sends.
    success: { "200": taskIdList, "201": taskIdList },
    errors: [400, 401, 403, 404, 429, 500],
  },
  "POST /cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits": {
    method: "post",
    path: "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits",
    security: "APIKey",
    parameters: { project_id: projectId, region_id: regionId },
    body: virtualGpuQuotaCheckRequest,
    success: { "200": virtualGpuQuotaCheckResult },
    errors: [400, 401, 403, 404, 429, 500],
  },
  "GET /streaming/ai/tasks": {
    method: "get",
    path: "/streaming/ai/tasks",
    security: "APIKey",
    parameters: {
      task_id: { in: "query", type: "string", format: "uuid" },
      task_name: { in: "query", type: "string", enum: AI_TASK_NAMES },
      status: { in: "query", type: "string", enum: AI_TASK_STATUSES },
      date_created: { in: "query", type: "string" },
      ordering: { in: "query", type: "string", enum: ["task_id", "status", "task_name", "started_at"] },
      search: { in: "query", type: "string" },
      page: { in: "query", type: "integer", default: 1, minimum: 1 },
      limit: { in: "query", type: "integer", default: 10 },
    },
    success: { "200": aiTaskList },
    errors: [400, 401, 403, 429, 500],
  },
  "GET /security/iaas/v2/profiles/{id}": {
    method: "get",
    path: "/security/iaas/v2/profiles/{id}",
    security: "APIKey",
    parameters: { id: { in: "path", type: "integer", required: true } },
    success: { "200": protectionProfile },
    errors: [401, 403, 404, 429, 500],
  },
  "PUT /security/iaas/v2/profiles/{id}": {
    method: "put",
    path: "/security/iaas/v2/profiles/{id}",
    security: "APIKey",
    parameters: { id: { in: "path", type: "integer", required: true } },
    body: protectionProfileUpdate,
    success: { "200": protectionProfile },
    errors: [400, 401, 403, 404, 429, 500],
  },
  "PUT /storage/notifications/v1/event": {
    method: "put",
    path: "/storage/notifications/v1/event",
    security: "APIKey",
    parameters: { client_id: { in: "query", type: "integer" } },
    body: storageNotificationEvent,
    // No body; the status code is not shown, so the description answers with a 2XX range.
    success: { "2XX": "none" },
    errors: [400, 401, 403, 429, 500],
  },
};
