// Regions and errors: a resource that does not exist, or a region that does not, is 404.

import { expectStatus } from "../src/lists.js";
import { scenario } from "../src/scenario.js";

const UNKNOWN = 987_654_321;

scenario(
  {
    id: "errors.unknown-region-404",
    title: "a region that does not exist is 404",
    severity: "must",
    operation: "listInstances",
    needs: ["state"],
    calls: [`GET /cloud/v1/instances/{project}/${UNKNOWN}`],
  },
  async ({ http, run }) => {
    expectStatus(
      await http.call({
        method: "GET",
        path: "/cloud/v1/instances/{project_id}/{region_id}",
        params: { project_id: run.discovered.projectId, region_id: UNKNOWN },
      }),
      404,
    );
  },
);

scenario(
  {
    id: "errors.unknown-project-404",
    title: "a project that does not exist is 404",
    severity: "must",
    operation: "listInstances",
    needs: ["state"],
    calls: [`GET /cloud/v1/instances/${UNKNOWN}/{region}`],
  },
  async ({ http, run }) => {
    expectStatus(
      await http.call({
        method: "GET",
        path: "/cloud/v1/instances/{project_id}/{region_id}",
        params: { project_id: UNKNOWN, region_id: run.discovered.regionId },
      }),
      404,
    );
  },
);

scenario(
  {
    id: "errors.unknown-task-404",
    title: "a task id that does not exist is 404",
    severity: "must",
    operation: "getTask",
    needs: ["state"],
    calls: ["GET /cloud/v1/tasks/{random uuid}"],
  },
  async ({ http }) => {
    expectStatus(
      await http.call({
        method: "GET",
        path: "/cloud/v1/tasks/{task_id}",
        params: { task_id: crypto.randomUUID() },
      }),
      404,
    );
  },
);

scenario(
  {
    id: "errors.unknown-profile-404",
    title: "a protection profile that does not exist is 404",
    severity: "must",
    operation: "getProtectionProfile",
    needs: ["state"],
    calls: [`GET /security/iaas/v2/profiles/${UNKNOWN}`],
  },
  async ({ http }) => {
    expectStatus(
      await http.call({ method: "GET", path: "/security/iaas/v2/profiles/{id}", params: { id: UNKNOWN } }),
      404,
    );
  },
);
