// JSON Schema of a world file (`--seed FILE`). Records the API returns are checked against the
// spec's own component schemas, and the simulator's bookkeeping against what the spec names (the
// regional limit fields, the quotas of the virtual GPU quota check, its GPU models, the AI task
// list's ordering keys), so a seed file can never make the simulator answer off-spec.

import { specRef } from "@platform-api/spec";
import { aiTaskOrderingFields, gpuModels, regionalQuotaNames } from "./spec-facts.js";

const component = (name: string) => ({ $ref: specRef(`#/components/schemas/${name}`) });
const integer = { type: "integer" };
const string = { type: "string" };
const count = { type: "integer", minimum: 0 };

function table(properties: Record<string, unknown>, required: string[] = Object.keys(properties)) {
  return { type: "array", items: { type: "object", additionalProperties: false, required, properties } };
}

export function worldSchema(doc: object) {
  const quotaNames = regionalQuotaNames(doc);
  const startedAt = Object.fromEntries(
    aiTaskOrderingFields(doc).map((field) => [field, { type: "string", format: "date-time" }]),
  );
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    additionalProperties: false,
    required: ["clients", "tokens", "projects", "regions"],
    properties: {
      clients: {
        type: "array",
        items: {
          allOf: [component("ClientAccount"), { type: "object", properties: { reseller_id: integer } }],
          unevaluatedProperties: false,
        },
      },
      tokens: table(
        {
          token: { type: "string", minLength: 1, pattern: "^\\S+$" },
          kind: { enum: ["client", "reseller"] },
          owner_id: integer,
          read_only: { type: "boolean" },
          expires_at: { type: ["string", "null"], format: "date-time" },
          label: string,
          user_id: integer,
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
      instances: table({ project_id: integer, region_id: integer, count, name_prefix: string }, [
        "project_id",
        "region_id",
        "count",
      ]),
      volumes: table({
        id: string,
        project_id: integer,
        region_id: integer,
        name: string,
        size: { type: "integer", minimum: 1 },
        type_name: string,
        source: string,
      }),
      quotas: table({
        client_id: integer,
        region_id: integer,
        limits: {
          allOf: [
            component("RegionalLimits"),
            // Which region is the quota's own; the values are amounts.
            { properties: { region_id: false }, additionalProperties: count },
          ],
        },
      }),
      usage: table({
        client_id: integer,
        region_id: integer,
        usage: {
          type: "object",
          additionalProperties: false,
          properties: Object.fromEntries(quotaNames.map((name) => [name, count])),
        },
      }),
      flavors: table({
        name: string,
        gpu_model: { enum: gpuModels(doc) },
        gpus_per_server: { type: "integer", minimum: 1 },
      }),
      quota_limit_requests: { type: "array", items: component("QuotaLimitRequest") },
      ai_tasks: table({ client_id: integer, ...startedAt, record: component("AiTask") }),
      protection_profile_templates: { type: "array", items: component("ProfileTemplate") },
      protection_profiles: table({ client_id: integer, record: component("ProtectionProfile") }),
      storage_notification_events: table({
        client_id: integer,
        event: component("StorageNotificationEvent"),
      }),
      tasks: table({
        client_id: integer,
        project_id: integer,
        region_id: integer,
        record: component("Task"),
      }),
    },
  };
}
