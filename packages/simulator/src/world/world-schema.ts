// JSON Schema of a world file (`--seed FILE`). Records the API returns are checked against the
// spec's own component schemas, so a seed file can never make the simulator answer off-spec.

import { SPEC_ID } from "../spec.js";

const component = (name: string) => ({ $ref: `${SPEC_ID}#/components/schemas/${name}` });
const integer = { type: "integer" };
const string = { type: "string" };
const numbers = { type: "object", additionalProperties: { type: "integer", minimum: 0 } };

function table(properties: Record<string, unknown>, required: string[] = Object.keys(properties)) {
  return { type: "array", items: { type: "object", additionalProperties: false, required, properties } };
}

export const WORLD_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  additionalProperties: false,
  required: ["clients", "tokens", "projects", "regions"],
  properties: {
    clients: table({ id: integer, email: string, status: string, reseller_id: integer }, [
      "id",
      "email",
      "status",
    ]),
    tokens: table(
      {
        token: { type: "string", minLength: 1, pattern: "^\\S+$" },
        kind: { enum: ["client", "reseller"] },
        owner_id: integer,
        read_only: { type: "boolean" },
        expires_at: { type: ["string", "null"], format: "date-time" },
        label: string,
      },
      ["token", "kind", "owner_id"],
    ),
    projects: {
      type: "array",
      items: {
        allOf: [
          component("Project"),
          { type: "object", required: ["client_id"], properties: { client_id: integer } },
        ],
      },
    },
    regions: { type: "array", items: component("Region") },
    instances: table(
      {
        project_id: integer,
        region_id: integer,
        count: { type: "integer", minimum: 0 },
        name_prefix: string,
      },
      ["project_id", "region_id", "count"],
    ),
    volumes: table({
      id: string,
      project_id: integer,
      region_id: integer,
      name: string,
      size: { type: "integer", minimum: 1 },
      type_name: string,
      source: string,
    }),
    quotas: table({ client_id: integer, region_id: integer, limits: numbers }),
    usage: table({ client_id: integer, region_id: integer, usage: numbers }),
    flavors: table({
      name: string,
      gpu_model: { enum: ["a100", "h100", "h200", "l40s"] },
      gpus_per_server: { type: "integer", minimum: 1 },
    }),
    quota_limit_requests: { type: "array", items: component("QuotaLimitRequest") },
    ai_tasks: table({
      client_id: integer,
      started_at: { type: "string", format: "date-time" },
      record: component("AiTask"),
    }),
    protection_profile_templates: { type: "array", items: component("ProfileTemplate") },
    protection_profiles: table({ client_id: integer, record: component("ProtectionProfile") }),
    storage_notification_events: table({ client_id: integer, event: component("StorageNotificationEvent") }),
    tasks: table({ client_id: integer, project_id: integer, region_id: integer, record: component("Task") }),
  },
} as const;
