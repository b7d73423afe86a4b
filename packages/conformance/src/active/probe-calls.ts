// Calls the schema results make of their own, for answers no other scenario asks for: the task
// list (no scenario reads it: its body is unspecified), a refusal of a body without a required
// field or with a wrongly typed one. Every other answer the schema results judge comes from the
// scenarios and checks themselves (refusals, unknown ids, missing auth, pages, tasks, the burst).

import type { components } from "@platform-api/spec/generated/openapi";
import { offSpec } from "../facts/api.js";
import { asSpecValues, operationAt } from "../facts/spec.js";
import { taskFacts } from "../facts/tasks.js";
import type { Http } from "../http/http.js";
import type { RunContext } from "../shared/context.js";
import { hasStatus } from "./check.js";
import type { Need } from "./scenario.js";

type Schemas = components["schemas"];

export interface Probe {
  needs: Need[];
  calls: string[];
  run(http: Http, run: RunContext): Promise<void>;
}

const VOLUMES = "/cloud/v1/volumes/{project_id}/{region_id}";
const CHECK_LIMITS = "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits";
const PROFILE = "/security/iaas/v2/profiles/{id}";

/** The run's project and region (a probe that needs them declares so: they are there). */
const place = (run: RunContext) => ({
  project_id: run.discovered.projectId ?? 0,
  region_id: run.discovered.regionId ?? 0,
});

function taskFilter() {
  const volumeTask = operationAt("post", VOLUMES).asyncTask;
  return {
    state: asSpecValues<Schemas["TaskState"]>(volumeTask ? [taskFacts(volumeTask).finished] : [])[0],
    task_type: volumeTask?.taskType,
  };
}

export const PROBES: Readonly<Record<string, Probe>> = {
  listProjects: {
    needs: [],
    calls: ["GET /cloud/v1/projects"],
    async run(http) {
      await http.call({ method: "GET", path: "/cloud/v1/projects" });
    },
  },
  listTasks: {
    needs: [],
    calls: [
      "GET /cloud/v1/tasks?limit=5",
      "GET /cloud/v1/tasks?state=<success state>&task_type=<the volume's>",
    ],
    async run(http) {
      await http.call({ method: "GET", path: "/cloud/v1/tasks", query: { limit: 5 } });
      await http.call({ method: "GET", path: "/cloud/v1/tasks", query: taskFilter() });
    },
  },
  checkVirtualGpuClusterLimits: {
    needs: ["project", "region"],
    calls: ["POST …/check_limits without flavor"],
    async run(http, run) {
      await http.call({
        method: "POST",
        path: CHECK_LIMITS,
        params: place(run),
        body: offSpec({ servers_count: 2 }),
      });
    },
  },
  updateProtectionProfile: {
    needs: ["writes", "profile"],
    calls: ["GET /security/iaas/v2/profiles/{id}", "PUT the same field values back", "PUT without fields"],
    async run(http, run) {
      const params = { id: run.discovered.protectionProfileId ?? 0 };
      const current = await http.call({ method: "GET", path: PROFILE, params });
      if (!hasStatus(current, 200) || !Array.isArray(current.body?.fields)) return;
      const profile = current.body;
      const fields = profile.fields.map((f) => ({
        base_field: f.base_field,
        value: f.value,
        field_value: f.field_value,
      }));
      await http.call({
        method: "PUT",
        path: PROFILE,
        params,
        body: { fields, ip_address: profile.ip_address },
      });
      await http.call({ method: "PUT", path: PROFILE, params, body: offSpec({ site: profile.site }) });
    },
  },
  createVolume: {
    needs: ["writes", "project", "region"],
    calls: ['POST /cloud/v1/volumes/{project}/{region} {size: "ten"}'],
    async run(http, run) {
      await http.call({
        method: "POST",
        path: VOLUMES,
        params: place(run),
        body: offSpec({ name: "conformance-probe", size: "ten" }),
      });
    },
  },
};
