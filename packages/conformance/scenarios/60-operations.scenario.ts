// The other operations: the account verifies the token; check_limits answers all 27 integer
// fields and its `_requested` grows with the server count; a protection profile update reads back;
// a storage notification event is accepted, and refused without `name`.

import { loadBundle } from "@platform-api/spec";
import { expectStatus } from "../src/lists.js";
import { check, scenario } from "../src/scenario.js";

// The quota names come from the spec's result schema (27 fields: 9 quotas × limit, requested, usage).
const RESULT = loadBundle() as { components: { schemas: Record<string, { required: string[] }> } };
const FIELDS = RESULT.components.schemas.VirtualGpuQuotaCheckResult?.required ?? [];
const QUOTAS = FIELDS.filter((f) => f.endsWith("_requested")).map((f) => f.slice(0, -"_requested".length));
const CHECK_LIMITS = "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits";

scenario(
  {
    id: "account.verifies-token",
    title: "GET /iam/clients/me answers 200 with the token holder's account id",
    severity: "must",
    operation: "getCurrentClient",
    calls: ["GET /iam/clients/me"],
  },
  async ({ http }) => {
    const answer = await http.call({ method: "GET", path: "/iam/clients/me" });
    expectStatus(answer, 200);
    check(Number.isInteger(answer.body?.id), `the account has no integer id: ${answer.text.slice(0, 200)}`);
  },
);

scenario(
  {
    id: "check-limits.all-fields",
    title: "check_limits answers _limit, _requested and _usage of all nine quotas as integers",
    severity: "must",
    operation: "checkVirtualGpuClusterLimits",
    needs: ["gpu-flavor"],
    calls: ["POST …/check_limits {flavor, servers_count: 1}"],
  },
  async ({ http, run }) => {
    const params = { project_id: run.discovered.projectId, region_id: run.discovered.regionId };
    const answer = await http.call({
      method: "POST",
      path: CHECK_LIMITS,
      params,
      body: { flavor: run.discovered.gpuFlavor, servers_count: 1 },
    });
    expectStatus(answer, 200);
    const missing = FIELDS.filter((field) => !Number.isInteger(answer.body?.[field]));
    check(missing.length === 0, `not integers or missing: ${missing.join(", ")}`);
  },
);

scenario(
  {
    id: "check-limits.requested-grows-with-servers",
    title: "check_limits: _requested grows with servers_count, never shrinks",
    severity: "must",
    operation: "checkVirtualGpuClusterLimits",
    needs: ["gpu-flavor", "state"],
    calls: ["POST …/check_limits with servers_count 1", "… with servers_count 3"],
  },
  async ({ http, run }) => {
    const params = { project_id: run.discovered.projectId, region_id: run.discovered.regionId };
    const ask = async (servers_count: number) => {
      const answer = await http.call({
        method: "POST",
        path: CHECK_LIMITS,
        params,
        // No servers_settings: the allowed values of its nested fields are not shown, and the
        // flavor's GPU cards alone must grow with the server count.
        body: { flavor: run.discovered.gpuFlavor, servers_count },
      });
      expectStatus(answer, 200);
      return answer.body as Record<string, number>;
    };
    const one = await ask(1);
    const three = await ask(3);
    const shrank = QUOTAS.filter((q) => three[`${q}_requested`]! < one[`${q}_requested`]!);
    const grew = QUOTAS.filter((q) => three[`${q}_requested`]! > one[`${q}_requested`]!);
    check(shrank.length === 0, `_requested shrank from 1 to 3 servers: ${shrank.join(", ")}`);
    check(
      grew.length > 0,
      `no _requested field grew from 1 to 3 servers (e.g. gpu cards and volumes): ${QUOTAS.map((q) => `${q} ${one[`${q}_requested`]}→${three[`${q}_requested`]}`).join(", ")}`,
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
    const params = { id: run.discovered.protectionProfileId as number };
    const before = await http.call({ method: "GET", path, params });
    expectStatus(before, 200);
    // Which fields are updatable is not shown; an int field with a value is the safest to change.
    const field = (before.body.fields as any[]).find(
      (f) => f.field_type === "int" && /^-?\d+$/.test(String(f.value)),
    );
    if (!field) return skip("the profile has no int field to change (the only field type the spec shows)");
    const old = Number(field.value);
    const schema = field.validation_schema ?? {};
    const next = typeof schema.maximum === "number" && old + 1 > schema.maximum ? old - 1 : old + 1;
    const put = (value: number) =>
      http.call({
        method: "PUT",
        path,
        params,
        body: {
          fields: [{ base_field: field.base_field, value: String(value), field_value: value }],
          ip_address: before.body.ip_address,
        },
      });
    const updated = await put(next);
    expectStatus(updated, 200);
    try {
      const after = await http.call({ method: "GET", path, params });
      expectStatus(after, 200);
      const read = (after.body.fields as any[]).find((f) => f.base_field === field.base_field);
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
    calls: ["PUT /storage/notifications/v1/event {name: reaching_used_requests, count}"],
  },
  async ({ http }) => {
    const answer = await http.call({
      method: "PUT",
      path: "/storage/notifications/v1/event",
      body: { name: "reaching_used_requests", count: 5_000_000 },
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
    title: "a storage notification event without name is refused with 400",
    severity: "must",
    operation: "putStorageNotificationEvent",
    needs: ["writes"],
    calls: ["PUT /storage/notifications/v1/event {count} (no name)"],
  },
  async ({ http }) => {
    expectStatus(
      await http.call({ method: "PUT", path: "/storage/notifications/v1/event", body: { count: 10 } }),
      400,
    );
  },
);
