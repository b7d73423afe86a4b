// Schema: every answer of every operation, errors included, is valid against the bundled spec:
// status documented, content type documented, body valid. What the spec leaves unspecified (error
// body shapes, the task list's body) is open in the spec, so it is never asserted here either.
// createVolume and the polled task answers are checked in the task scenarios, which make them.

import type { Answer } from "../src/http.js";
import { checkAgainstSpec } from "../src/lists.js";
import { scenario } from "../src/scenario.js";

const NO_AUTH = { auth: "none" } as const;

scenario(
  {
    id: "schema.getCurrentClient",
    title: "GET /iam/clients/me answers on-spec, with and without a token",
    severity: "must",
    operation: "getCurrentClient",
    calls: ["GET /iam/clients/me", "GET /iam/clients/me (no Authorization)"],
  },
  async ({ http, validator }) => {
    const answers = [
      await http.call({ method: "GET", path: "/iam/clients/me" }),
      await http.call({ method: "GET", path: "/iam/clients/me", ...NO_AUTH }),
    ];
    checkAgainstSpec(validator, answers);
  },
);

scenario(
  {
    id: "schema.listProjects",
    title: "GET /cloud/v1/projects answers on-spec",
    severity: "must",
    operation: "listProjects",
    calls: ["GET /cloud/v1/projects", "GET /cloud/v1/projects (no Authorization)"],
  },
  async ({ http, validator }) => {
    checkAgainstSpec(validator, [
      await http.call({ method: "GET", path: "/cloud/v1/projects" }),
      await http.call({ method: "GET", path: "/cloud/v1/projects", ...NO_AUTH }),
    ]);
  },
);

scenario(
  {
    id: "schema.listRegions",
    title: "GET /cloud/v1/regions answers on-spec, pages and refusals included",
    severity: "must",
    operation: "listRegions",
    calls: [
      "GET /cloud/v1/regions",
      "GET /cloud/v1/regions?limit=2&offset=1",
      "GET /cloud/v1/regions?limit=0",
      "no Authorization",
    ],
  },
  async ({ http, validator }) => {
    const path = "/cloud/v1/regions";
    checkAgainstSpec(validator, [
      await http.call({ method: "GET", path }),
      await http.call({ method: "GET", path, query: { limit: 2, offset: 1 } }),
      await http.call({ method: "GET", path, query: { limit: 0 } }),
      await http.call({ method: "GET", path, ...NO_AUTH }),
    ]);
  },
);

scenario(
  {
    id: "schema.listInstances",
    title: "GET /cloud/v1/instances/{project_id}/{region_id} answers on-spec, unknown region included",
    severity: "must",
    operation: "listInstances",
    calls: [
      "GET /cloud/v1/instances/{project}/{region}?limit=5",
      "GET /cloud/v1/instances/{project}/{unknown region}",
      "GET /cloud/v1/instances/{project}/{region}?offset=-1",
    ],
  },
  async ({ http, validator, run }) => {
    const path = "/cloud/v1/instances/{project_id}/{region_id}";
    const params = { project_id: run.discovered.projectId, region_id: run.discovered.regionId };
    checkAgainstSpec(validator, [
      await http.call({ method: "GET", path, params, query: { limit: 5 } }),
      await http.call({ method: "GET", path, params: { ...params, region_id: 987_654_321 } }),
      await http.call({ method: "GET", path, params, query: { offset: -1 } }),
    ]);
  },
);

scenario(
  {
    id: "schema.getTask",
    title: "GET /cloud/v1/tasks/{task_id} answers on-spec for an unknown task",
    severity: "must",
    operation: "getTask",
    calls: ["GET /cloud/v1/tasks/{random uuid}", "no Authorization"],
  },
  async ({ http, validator }) => {
    const params = { task_id: crypto.randomUUID() };
    checkAgainstSpec(validator, [
      await http.call({ method: "GET", path: "/cloud/v1/tasks/{task_id}", params }),
      await http.call({ method: "GET", path: "/cloud/v1/tasks/{task_id}", params, ...NO_AUTH }),
    ]);
  },
);

scenario(
  {
    id: "schema.listTasks",
    title: "GET /cloud/v1/tasks answers on-spec (its body shape is unspecified, so only status and type)",
    severity: "must",
    operation: "listTasks",
    calls: ["GET /cloud/v1/tasks?limit=5", "GET /cloud/v1/tasks?state=FINISHED&task_type=create_volume"],
  },
  async ({ http, validator }) => {
    checkAgainstSpec(validator, [
      await http.call({ method: "GET", path: "/cloud/v1/tasks", query: { limit: 5 } }),
      await http.call({
        method: "GET",
        path: "/cloud/v1/tasks",
        query: { state: "FINISHED", task_type: "create_volume" },
      }),
    ]);
  },
);

scenario(
  {
    id: "schema.listQuotaLimitRequests",
    title: "GET /cloud/reseller/v1/limits_request answers on-spec, for the reseller and a client token",
    severity: "must",
    operation: "listQuotaLimitRequests",
    needs: ["reseller"],
    calls: [
      "GET /cloud/reseller/v1/limits_request (reseller token)",
      "GET /cloud/reseller/v1/limits_request?status=done&status=rejected&limit=3",
      "GET /cloud/reseller/v1/limits_request (client token)",
    ],
  },
  async ({ http, validator }) => {
    const path = "/cloud/reseller/v1/limits_request";
    checkAgainstSpec(validator, [
      await http.call({ method: "GET", path, auth: "reseller" }),
      await http.call({
        method: "GET",
        path,
        auth: "reseller",
        query: { status: ["done", "rejected"], limit: 3 },
      }),
      await http.call({ method: "GET", path }),
    ]);
  },
);

scenario(
  {
    id: "schema.listAiTasks",
    title: "GET /streaming/ai/tasks answers on-spec, pages and filters included",
    severity: "must",
    operation: "listAiTasks",
    calls: [
      "GET /streaming/ai/tasks",
      "GET /streaming/ai/tasks?page=2&limit=5",
      "GET /streaming/ai/tasks?status=SUCCESS&ordering=task_id",
    ],
  },
  async ({ http, validator }) => {
    const path = "/streaming/ai/tasks";
    checkAgainstSpec(validator, [
      await http.call({ method: "GET", path }),
      await http.call({ method: "GET", path, query: { page: 2, limit: 5 } }),
      await http.call({ method: "GET", path, query: { status: "SUCCESS", ordering: "task_id" } }),
      await http.call({ method: "GET", path, ...NO_AUTH }),
    ]);
  },
);

scenario(
  {
    id: "schema.checkVirtualGpuClusterLimits",
    title: "POST …/check_limits answers on-spec, a body without flavor included",
    severity: "must",
    operation: "checkVirtualGpuClusterLimits",
    needs: ["gpu-flavor"],
    calls: ["POST /cloud/v3/gpu/virtual/{project}/{region}/check_limits", "same without flavor"],
  },
  async ({ http, validator, run }) => {
    const path = "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits";
    const params = { project_id: run.discovered.projectId, region_id: run.discovered.regionId };
    checkAgainstSpec(validator, [
      await http.call({
        method: "POST",
        path,
        params,
        body: { flavor: run.discovered.gpuFlavor, servers_count: 2 },
      }),
      await http.call({ method: "POST", path, params, body: { servers_count: 2 } }),
    ]);
  },
);

scenario(
  {
    id: "schema.getProtectionProfile",
    title: "GET /security/iaas/v2/profiles/{id} answers on-spec, an unknown id included",
    severity: "must",
    operation: "getProtectionProfile",
    needs: ["profile"],
    calls: ["GET /security/iaas/v2/profiles/{id}", "GET /security/iaas/v2/profiles/{unknown id}"],
  },
  async ({ http, validator, run }) => {
    const path = "/security/iaas/v2/profiles/{id}";
    checkAgainstSpec(validator, [
      await http.call({ method: "GET", path, params: { id: run.discovered.protectionProfileId as number } }),
      await http.call({ method: "GET", path, params: { id: 987_654_321 } }),
    ]);
  },
);

scenario(
  {
    id: "schema.updateProtectionProfile",
    title: "PUT /security/iaas/v2/profiles/{id} answers on-spec, a body without fields included",
    severity: "must",
    operation: "updateProtectionProfile",
    needs: ["writes", "profile"],
    calls: ["GET /security/iaas/v2/profiles/{id}", "PUT the same field values back", "PUT without fields"],
  },
  async ({ http, validator, run, skip }) => {
    const path = "/security/iaas/v2/profiles/{id}";
    const params = { id: run.discovered.protectionProfileId as number };
    const current = await http.call({ method: "GET", path, params });
    if (current.status !== 200 || !Array.isArray(current.body?.fields))
      return skip(`GET ${current.url} answered ${current.status}`);
    const fields = (current.body.fields as any[]).map((f) => ({
      base_field: f.base_field,
      value: f.value,
      field_value: f.field_value,
    }));
    const answers: Answer[] = [
      await http.call({ method: "PUT", path, params, body: { fields, ip_address: current.body.ip_address } }),
      await http.call({ method: "PUT", path, params, body: { site: current.body.site } }),
    ];
    checkAgainstSpec(validator, answers);
  },
);

scenario(
  {
    id: "schema.putStorageNotificationEvent",
    title: "PUT /storage/notifications/v1/event answers on-spec, a body without name included",
    severity: "must",
    operation: "putStorageNotificationEvent",
    needs: ["writes"],
    calls: ["PUT /storage/notifications/v1/event {name, bytes}", "PUT without name"],
  },
  async ({ http, validator }) => {
    const path = "/storage/notifications/v1/event";
    checkAgainstSpec(validator, [
      await http.call({
        method: "PUT",
        path,
        body: { name: "reaching_used_space", bytes: 1_000_000_000_000 },
      }),
      await http.call({ method: "PUT", path, body: { bytes: 1 } }),
    ]);
  },
);
