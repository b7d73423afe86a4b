// The other operations: the account answers the token holder; check_limits answers all 27 integer
// fields and its `_requested` grows with the server count; a protection profile update reads back;
// a storage notification event is accepted, and refused without `name`.

import { inferredRequiredAt, operationById } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import { expectStatus } from "../src/active/lists.js";
import { check, scenario } from "../src/active/scenario.js";
import { offSpec } from "../src/facts/api.js";
import {
  bodyValues,
  firstOf,
  requiredOf,
  schemaAt,
  specModel,
  successSchemaPointer,
  valuesOf,
} from "../src/facts/spec.js";
import { fieldOf } from "../src/shared/json.js";

type CheckResult = components["schemas"]["VirtualGpuQuotaCheckResult"];
type ProfileField = components["schemas"]["ProfileField"];

// The quota names come from the spec's result schema (for each quota: limit, requested, usage).
const RESULT_POINTER = successSchemaPointer(operationById(specModel(), "checkVirtualGpuClusterLimits"));
const RESULT = schemaAt(RESULT_POINTER);
const FIELDS = requiredOf(RESULT) as (keyof CheckResult)[];
const QUOTAS = FIELDS.filter((f) => f.endsWith("_requested")).map((f) => f.slice(0, -"_requested".length));
const requested = (result: CheckResult, quota: string) =>
  Number(result[`${quota}_requested` as keyof CheckResult]);
// The spec requires those fields by its own inference (x-inferred-required), not the seed's word:
// a result without one is a `should` finding.
const INFERRED = new Set(inferredRequiredAt(specModel(), RESULT_POINTER));
const ALL_FIELDS_SEVERITY = FIELDS.some((f) => INFERRED.has(f)) ? "should" : "must";
const CHECK_LIMITS = "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits";

// The one field type the spec shows for a protection profile field (int): the safest to change.
const FIELD_TYPE = firstOf(
  valuesOf(
    schemaAt(
      successSchemaPointer(operationById(specModel(), "getProtectionProfile")),
      ...["properties", "fields", "items", "properties", "field_type"],
    ),
  ),
  "protection profile field type",
);
// A storage event name the spec lists, other than the one the schema scenario sends.
const EVENT_NAME = firstOf(
  bodyValues<components["schemas"]["StorageNotificationEventName"]>("putStorageNotificationEvent", "name")
    .slice()
    .reverse(),
  "storage notification event name",
);

// The account's fields are required by the spec's inference alone: the id is checked where it is
// sent (its presence is schema.inferred.getCurrentClient's to judge).
scenario(
  {
    id: "account.verifies-token",
    title: "GET /iam/clients/me answers 200 with the token holder's account (its id an integer where sent)",
    severity: "must",
    operation: "getCurrentClient",
    calls: ["GET /iam/clients/me"],
  },
  async ({ http }) => {
    const answer = await http.call({ method: "GET", path: "/iam/clients/me" });
    expectStatus(answer, 200);
    const id = fieldOf(answer.body, "id");
    check(
      id === undefined || Number.isInteger(id),
      `the account's id is not an integer: ${answer.text.slice(0, 200)}`,
    );
  },
);

scenario(
  {
    id: "check-limits.all-fields",
    title: `check_limits answers _limit, _requested and _usage of all ${QUOTAS.length} quotas as integers`,
    severity: ALL_FIELDS_SEVERITY,
    operation: "checkVirtualGpuClusterLimits",
    needs: ["gpu-flavor", "project", "region"],
    calls: ["POST …/check_limits {flavor, servers_count: 1}"],
  },
  async ({ http, run, skip, place }) => {
    const params = place();
    const flavor = run.discovered.gpuFlavor ?? skip("no GPU flavor");
    const answer = await http.call({
      method: "POST",
      path: CHECK_LIMITS,
      params,
      body: { flavor, servers_count: 1 },
    });
    expectStatus(answer, 200);
    const result = answer.body;
    const missing = FIELDS.filter((field) => !Number.isInteger(result[field]));
    check(missing.length === 0, `not integers or missing: ${missing.join(", ")}`);
  },
);

scenario(
  {
    id: "check-limits.requested-grows-with-servers",
    title: "check_limits: _requested grows with servers_count, never shrinks",
    severity: "must",
    operation: "checkVirtualGpuClusterLimits",
    needs: ["gpu-flavor", "state", "project", "region"],
    calls: ["POST …/check_limits with servers_count 1", "… with servers_count 3"],
  },
  async ({ http, run, skip, place }) => {
    const params = place();
    const flavor = run.discovered.gpuFlavor ?? skip("no GPU flavor");
    const ask = async (servers_count: number) => {
      const answer = await http.call({
        method: "POST",
        path: CHECK_LIMITS,
        params,
        // No servers_settings: the allowed values of its nested fields are not shown, and the
        // flavor's GPU cards alone must grow with the server count.
        body: { flavor, servers_count },
      });
      expectStatus(answer, 200);
      return answer.body;
    };
    const one = await ask(1);
    const three = await ask(3);
    const shrank = QUOTAS.filter((q) => requested(three, q) < requested(one, q));
    const grew = QUOTAS.filter((q) => requested(three, q) > requested(one, q));
    check(shrank.length === 0, `_requested shrank from 1 to 3 servers: ${shrank.join(", ")}`);
    check(
      grew.length > 0,
      `no _requested field grew from 1 to 3 servers (e.g. gpu cards and volumes): ${QUOTAS.map((q) => `${q} ${requested(one, q)}→${requested(three, q)}`).join(", ")}`,
    );
  },
);

scenario(
  {
    id: "protection-profile.update-read-back",
    title: "a protection profile update is what a later read returns (then the old value is put back)",
    severity: "must",
    operation: "updateProtectionProfile, getProtectionProfile",
    needs: ["writes", "profile", "state"],
    calls: [
      "GET /security/iaas/v2/profiles/{id}",
      "PUT one int field changed",
      "GET (read back)",
      "PUT the old value back",
    ],
  },
  async ({ http, run, skip }) => {
    const path = "/security/iaas/v2/profiles/{id}";
    const params = { id: run.discovered.protectionProfileId ?? skip("no protection profile id") };
    const before = await http.call({ method: "GET", path, params });
    expectStatus(before, 200);
    const profile = before.body;
    // Which fields are updatable is not shown; an int field with a value is the safest to change.
    const field = (Array.isArray(profile.fields) ? profile.fields : []).find(
      (f: ProfileField) => f.field_type === FIELD_TYPE && /^-?\d+$/.test(String(f.value)),
    );
    if (!field)
      return skip(`the profile has no ${FIELD_TYPE} field to change (the only field type the spec shows)`);
    const old = Number(field.value);
    const maximum = fieldOf(field.validation_schema, "maximum");
    const next = typeof maximum === "number" && old + 1 > maximum ? old - 1 : old + 1;
    const put = (value: number) =>
      http.call({
        method: "PUT",
        path,
        params,
        body: {
          fields: [{ base_field: field.base_field, value: String(value), field_value: value }],
          ip_address: profile.ip_address,
        },
      });
    const updated = await put(next);
    expectStatus(updated, 200);
    try {
      const after = await http.call({ method: "GET", path, params });
      expectStatus(after, 200);
      const read = after.body.fields.find((f) => f.base_field === field.base_field);
      check(
        read && Number(read.value) === next,
        `field ${field.name} (base_field ${field.base_field}) was updated from ${old} to ${next}, but reads back as ${read?.value}`,
      );
    } finally {
      await put(old);
    }
  },
);

scenario(
  {
    id: "storage-notifications.event-accepted",
    title: "a storage notification event with a name is accepted (2xx)",
    severity: "must",
    operation: "putStorageNotificationEvent",
    needs: ["writes"],
    calls: [`PUT /storage/notifications/v1/event {name: ${EVENT_NAME}, count}`],
  },
  async ({ http }) => {
    const answer = await http.call({
      method: "PUT",
      path: "/storage/notifications/v1/event",
      body: { name: EVENT_NAME, count: 5_000_000 },
    });
    check(
      answer.status >= 200 && answer.status < 300,
      `answered ${answer.status}: ${answer.text.slice(0, 200)}`,
    );
  },
);

scenario(
  {
    id: "storage-notifications.name-required",
    refuses: true,
    title: "a storage notification event without name is refused with 400",
    severity: "must",
    operation: "putStorageNotificationEvent",
    needs: ["writes"],
    calls: ["PUT /storage/notifications/v1/event {count} (no name)"],
  },
  async ({ http }) => {
    expectStatus(
      await http.call({
        method: "PUT",
        path: "/storage/notifications/v1/event",
        body: offSpec({ count: 10 }),
      }),
      400,
    );
  },
);
