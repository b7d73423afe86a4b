// Smoke test of the Prism mock (`pnpm mock`): every operation is called once through the typed
// client, and every answer must validate against the description.
import { createSpecValidator, loadBundle } from "@platform-api/spec";
import { startPrismMock } from "@platform-api/spec/mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type PlatformClient } from "../src/index.js";

const validator = createSpecValidator(loadBundle());
let mock: { url: string; close: () => Promise<void> };
let client: PlatformClient;

beforeAll(async () => {
  mock = await startPrismMock({ port: 0 });
  client = createClient({
    apiKey: "2971$mock-token",
    resellerApiKey: "8812$mock-reseller",
    baseUrl: mock.url,
  });
});
afterAll(() => mock?.close());

const TASK_ID = "5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11";
const path = { project_id: 1, region_id: 76 };

type Call = () => Promise<{ data?: unknown; error?: unknown; response: Response }>;
const calls: [method: string, template: string, call: Call][] = [
  [
    "GET",
    "/cloud/v1/tasks",
    () => client.GET("/cloud/v1/tasks", { params: { query: { state: "RUNNING", limit: 10 } } }),
  ],
  [
    "GET",
    "/cloud/v1/tasks/{task_id}",
    () => client.GET("/cloud/v1/tasks/{task_id}", { params: { path: { task_id: TASK_ID } } }),
  ],
  ["GET", "/cloud/v1/projects", () => client.GET("/cloud/v1/projects")],
  [
    "GET",
    "/cloud/v1/regions",
    () => client.GET("/cloud/v1/regions", { params: { query: { limit: 2, offset: 0 } } }),
  ],
  [
    "GET",
    "/cloud/v1/instances/{project_id}/{region_id}",
    () => client.GET("/cloud/v1/instances/{project_id}/{region_id}", { params: { path } }),
  ],
  [
    "POST",
    "/cloud/v1/volumes/{project_id}/{region_id}",
    () =>
      client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
        params: { path },
        body: { name: "data-volume", source: "new-volume", type_name: "standard", size: 10 },
      }),
  ],
  [
    "POST",
    "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits",
    () =>
      client.POST("/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits", {
        params: { path },
        body: { flavor: "g3-ai-32-192-1500-l40s-48-1", servers_count: 2 },
      }),
  ],
  [
    "GET",
    "/cloud/reseller/v1/limits_request",
    () =>
      client.GET("/cloud/reseller/v1/limits_request", {
        params: { query: { status: ["done"], limit: 100 } },
      }),
  ],
  ["GET", "/iam/clients/me", () => client.GET("/iam/clients/me")],
  [
    "GET",
    "/streaming/ai/tasks",
    () => client.GET("/streaming/ai/tasks", { params: { query: { task_name: "transcription", page: 2 } } }),
  ],
  [
    "GET",
    "/security/iaas/v2/profiles/{id}",
    () => client.GET("/security/iaas/v2/profiles/{id}", { params: { path: { id: 4211 } } }),
  ],
  [
    "PUT",
    "/security/iaas/v2/profiles/{id}",
    () =>
      client.PUT("/security/iaas/v2/profiles/{id}", {
        params: { path: { id: 4211 } },
        body: { fields: [{ base_field: 31, value: "250000" }] },
      }),
  ],
  [
    "PUT",
    "/storage/notifications/v1/event",
    () =>
      client.PUT("/storage/notifications/v1/event", {
        params: { query: { client_id: 300112 } },
        body: { name: "reaching_used_space", bytes: 536870912000 },
      }),
  ],
];

describe("Prism mock of the bundled description", () => {
  it("is called for every operation of the description", () => {
    const doc = loadBundle() as { paths: Record<string, Record<string, unknown>> };
    const all = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((k) => ["get", "put", "post", "delete", "patch"].includes(k))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(calls.map(([m, t]) => `${m} ${t}`).sort()).toEqual(all.sort());
  });

  it.each(calls)(
    "%s %s answers with a success that validates against the spec",
    async (method, template, call) => {
      const { data, response } = await call();
      expect(response.status, `${method} ${template}`).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
      const errors = validator.validateResponse({
        method,
        path: template,
        status: response.status,
        contentType: response.headers.get("content-type"),
        body: data,
        hasBody: data !== undefined,
      });
      expect(errors).toEqual([]);
    },
  );

  it("answers a call without a token with a documented 401", async () => {
    const response = await fetch(`${mock.url}/iam/clients/me`);
    expect(response.status).toBe(401);
    const body = await response.text();
    expect(
      validator.validateResponse({
        method: "GET",
        path: "/iam/clients/me",
        status: response.status,
        contentType: response.headers.get("content-type"),
        body: body ? JSON.parse(body) : undefined,
      }),
    ).toEqual([]);
  });
});
