// Schema: every answer of every operation, errors included, is valid against the bundled spec:
// status documented, content type documented, body valid. What the spec leaves unspecified (error
// body shapes, the task list's body) is open in the spec, so it is never asserted here either.
// createVolume and the polled task answers are checked in the task scenarios, which make them.

import { operationById } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import { offSpec } from "../src/api.js";
import { hasStatus } from "../src/check.js";
import type { Answer } from "../src/http.js";
import { type AiTaskQuery, checkAgainstSpec } from "../src/lists.js";
import { offsetList } from "../src/offset.js";
import { scenario } from "../src/scenario.js";
import { asSpecValues, bodyValues, firstOf, queryValues, specModel } from "../src/spec.js";
import { taskFacts } from "../src/tasks.js";

type Schemas = components["schemas"];

const NO_AUTH = { auth: "none" } as const;
const model = specModel();

// Values the spec lists, for filters and bodies that must be valid.
const volumeTask = operationById(model, "createVolume").asyncTask;
const taskFilter = {
  state: asSpecValues<Schemas["TaskState"]>(volumeTask ? [taskFacts(volumeTask).finished] : [])[0],
  task_type: volumeTask?.taskType,
};
const quotaStatuses = queryValues<Schemas["QuotaLimitRequestStatus"]>("listQuotaLimitRequests", "status");
const twoQuotaStatuses = [quotaStatuses[0], quotaStatuses.at(-1)].filter((s) => s !== undefined);
const aiFilter: AiTaskQuery = {
  status: queryValues<Schemas["AiTaskStatus"]>("listAiTasks", "status").at(-1),
  ordering: queryValues<NonNullable<AiTaskQuery["ordering"]>>("listAiTasks", "ordering")[0],
};
const eventName = firstOf(
  bodyValues<Schemas["StorageNotificationEventName"]>("putStorageNotificationEvent", "name"),
  "storage notification event name",
);

// One below the smallest limit and offset the offset lists allow: answers a refusal or a clamp.
const regions = offsetList(operationById(model, "listRegions"));
const belowLimit = (regions.limit.minimum ?? 1) - 1;
const belowOffset = (regions.offset.minimum ?? 0) - 1;

const query = (values: Record<string, unknown>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join("&");

scenario(
  {
    id: "schema.getCurrentClient",
    title: "GET /iam/clients/me answers on-spec, with and without a token",
    severity: "must",
    operation: "getCurrentClient",
    calls: ["GET /iam/clients/me", "GET /iam/clients/me (no Authorization)"],
  },
  async ({ http }) => {
    const answers = [
      await http.call({ method: "GET", path: "/iam/clients/me" }),
      await http.call({ method: "GET", path: "/iam/clients/me", ...NO_AUTH }),
    ];
    checkAgainstSpec(answers);
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
  async ({ http }) => {
    checkAgainstSpec([
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
      `GET /cloud/v1/regions?${regions.limit.name}=${belowLimit}`,
      "no Authorization",
    ],
  },
  async ({ http }) => {
    const path = "/cloud/v1/regions";
    checkAgainstSpec([
      await http.call({ method: "GET", path }),
      await http.call({ method: "GET", path, query: { limit: 2, offset: 1 } }),
      await http.call({ method: "GET", path, query: { limit: belowLimit } }),
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
      `GET /cloud/v1/instances/{project}/{region}?${regions.offset.name}=${belowOffset}`,
    ],
  },
  async ({ http, run }) => {
    const path = "/cloud/v1/instances/{project_id}/{region_id}";
    const params = { project_id: run.discovered.projectId, region_id: run.discovered.regionId };
    checkAgainstSpec([
      await http.call({ method: "GET", path, params, query: { limit: 5 } }),
      await http.call({ method: "GET", path, params: { ...params, region_id: 987_654_321 } }),
      await http.call({ method: "GET", path, params, query: { offset: belowOffset } }),
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
  async ({ http }) => {
    const params = { task_id: crypto.randomUUID() };
    checkAgainstSpec([
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
    calls: ["GET /cloud/v1/tasks?limit=5", `GET /cloud/v1/tasks?${query(taskFilter)}`],
  },
  async ({ http }) => {
    checkAgainstSpec([
      await http.call({ method: "GET", path: "/cloud/v1/tasks", query: { limit: 5 } }),
      await http.call({ method: "GET", path: "/cloud/v1/tasks", query: taskFilter }),
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
      `GET /cloud/reseller/v1/limits_request?${twoQuotaStatuses.map((s) => `status=${s}`).join("&")}&limit=3`,
      "GET /cloud/reseller/v1/limits_request (client token)",
    ],
  },
  async ({ http }) => {
    const path = "/cloud/reseller/v1/limits_request";
    checkAgainstSpec([
      await http.call({ method: "GET", path, auth: "reseller" }),
      await http.call({
        method: "GET",
        path,
        auth: "reseller",
        query: { status: twoQuotaStatuses, limit: 3 },
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
      `GET /streaming/ai/tasks?${query(aiFilter)}`,
    ],
  },
  async ({ http }) => {
    const path = "/streaming/ai/tasks";
    checkAgainstSpec([
      await http.call({ method: "GET", path }),
      await http.call({ method: "GET", path, query: { page: 2, limit: 5 } }),
      await http.call({ method: "GET", path, query: aiFilter }),
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
  async ({ http, run, skip }) => {
    const path = "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits";
    const params = { project_id: run.discovered.projectId, region_id: run.discovered.regionId };
    const flavor = run.discovered.gpuFlavor ?? skip("no GPU flavor");
    checkAgainstSpec([
      await http.call({ method: "POST", path, params, body: { flavor, servers_count: 2 } }),
      await http.call({ method: "POST", path, params, body: offSpec({ servers_count: 2 }) }),
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
  async ({ http, run, skip }) => {
    const path = "/security/iaas/v2/profiles/{id}";
    const id = run.discovered.protectionProfileId ?? skip("no protection profile id");
    checkAgainstSpec([
      await http.call({ method: "GET", path, params: { id } }),
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
  async ({ http, run, skip }) => {
    const path = "/security/iaas/v2/profiles/{id}";
    const params = { id: run.discovered.protectionProfileId ?? skip("no protection profile id") };
    const current = await http.call({ method: "GET", path, params });
    if (!hasStatus(current, 200) || !Array.isArray(current.body?.fields))
      return skip(`GET ${current.url} answered ${current.status}`);
    const profile = current.body;
    const fields = profile.fields.map((f) => ({
      base_field: f.base_field,
      value: f.value,
      field_value: f.field_value,
    }));
    const answers: Answer[] = [
      await http.call({ method: "PUT", path, params, body: { fields, ip_address: profile.ip_address } }),
      await http.call({ method: "PUT", path, params, body: offSpec({ site: profile.site }) }),
    ];
    checkAgainstSpec(answers);
  },
);

scenario(
  {
    id: "schema.putStorageNotificationEvent",
    title: "PUT /storage/notifications/v1/event answers on-spec, a body without name included",
    severity: "must",
    operation: "putStorageNotificationEvent",
    needs: ["writes"],
    calls: [`PUT /storage/notifications/v1/event {name: ${eventName}, bytes}`, "PUT without name"],
  },
  async ({ http }) => {
    const path = "/storage/notifications/v1/event";
    checkAgainstSpec([
      await http.call({ method: "PUT", path, body: { name: eventName, bytes: 1_000_000_000_000 } }),
      await http.call({ method: "PUT", path, body: offSpec({ bytes: 1 }) }),
    ]);
  },
);
