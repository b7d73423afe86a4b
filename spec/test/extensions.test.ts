// The seed's conventions are machine-readable in the description, so tools read them instead of
// hard-coding copies. These tests pin the values to the seed.
import { describe, expect, it } from "vitest";
import { loadBundle, type Node, operationsOf } from "./bundle.js";

const doc = loadBundle();
const byId = new Map([...operationsOf(doc)].map((o) => [o.operation.operationId as string, o.operation]));
const op = (id: string): Node => {
  const operation = byId.get(id);
  if (!operation) throw new Error(`no operation ${id}`);
  return operation;
};

describe("machine-readable conventions", () => {
  it("has one server whose base_url defaults to the platform's public address", () => {
    expect(doc.servers).toHaveLength(1);
    expect(doc.servers[0].url).toBe("{base_url}");
    expect(doc.servers[0].variables.base_url.default).toBe("https://api.gcore.com");
  });

  it("authenticates with `Authorization: APIKey <token>` and warns about the `$` in tokens", () => {
    for (const name of ["APIKey", "ResellerAPIKey"]) {
      const scheme = doc.components.securitySchemes[name];
      expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
      expect(scheme.description).toContain("APIKey <");
      expect(scheme.description).toContain("`$`");
    }
    expect(doc.security).toEqual([{ APIKey: [] }]);
    const resellerOps = [...operationsOf(doc)].filter((o) => o.path.startsWith("/cloud/reseller"));
    expect(resellerOps.map((o) => o.operation.security)).toEqual([[{ ResellerAPIKey: [] }]]);
  });

  it("says which lists page by offset and which by page", () => {
    const paginated = Object.fromEntries(
      [...byId].filter(([, o]) => o["x-pagination"]).map(([id, o]) => [id, o["x-pagination"].style]),
    );
    expect(paginated).toEqual({
      listRegions: "offset",
      listInstances: "offset",
      listQuotaLimitRequests: "offset",
      listAiTasks: "page",
    });
    expect(op("listAiTasks")["x-pagination"]).toMatchObject({
      pageParam: "page",
      limitParam: "limit",
      nextField: "next",
      previousField: "previous",
    });
    expect(op("listRegions")["x-pagination"]).toMatchObject({
      limitParam: "limit",
      offsetParam: "offset",
      countField: "count",
      itemsField: "results",
    });
  });

  it("says which operations answer with tasks, and what they create", () => {
    const asyncOps = [...byId].filter(([, o]) => o["x-async-task"]).map(([id]) => id);
    expect(asyncOps).toEqual(["createVolume"]);
    expect(op("createVolume")["x-async-task"]).toEqual({
      tasksField: "tasks",
      taskType: "create_volume",
      createdResourcesKey: "volumes",
      pollOperationId: "getTask",
    });
  });

  it("lists the seed's recommended polling intervals and typical durations", () => {
    const polling = op("getTask")["x-task-polling"];
    expect(polling.terminalStates).toEqual(["FINISHED", "ERROR"]);
    const rows = polling.intervals.map((r: Node) => [
      r.operation,
      r.typicalDurationSeconds.min,
      r.typicalDurationSeconds.max,
      r.pollIntervalSeconds,
    ]);
    expect(rows).toEqual([
      ["Create VM", 15, 30, 5],
      ["Create volume", 5, 15, 5],
      ["Create network or subnet", 5, 10, 5],
      ["Create load balancer", 30, 90, 10],
      ["Delete VM", 15, 70, 5],
      ["Delete bare metal server", 60, 120, 30],
      ["Create Kubernetes cluster", 300, 900, 30],
    ]);
    const known = polling.intervals.filter((r: Node) => r.taskType).map((r: Node) => r.taskType);
    expect(known).toEqual(["create_vm", "create_volume", "delete_vm"]);
  });

  it("states the request-rate and login limits", () => {
    expect(
      doc["x-rate-limits"].map((l: Node) => [l.id, l.limit, l.periodSeconds, l.per, l.exceededStatus]),
    ).toEqual([
      ["request-rate", 100, 1, "ip-address", 429],
      ["login-requests", 5, 60, "ip-address", 429],
      ["failed-logins", 5, 3600, "ip-address", 429],
    ]);
  });

  it("documents an optional Retry-After header on 429 and no invented error body fields", () => {
    const tooMany = doc.components.responses.TooManyRequests;
    const header = doc.components.headers.RetryAfter;
    expect(tooMany.headers["Retry-After"]).toEqual({ $ref: "#/components/headers/RetryAfter" });
    expect(header.required).toBe(false);
    const errorBody = doc.components.schemas.ErrorBody;
    expect(errorBody.type).toBeUndefined();
    expect(errorBody.properties).toBeUndefined();
    expect(errorBody["x-unspecified"]).toContain("Error response body shape.");
  });

  it("marks the deprecated quota field", () => {
    const field = doc.components.schemas.RegionalLimits.properties.baremetal_gpu_count_limit;
    expect(field.deprecated).toBe(true);
    expect(field.description).toMatch(/sum of/);
  });

  it("marks what the seed leaves open wherever it says 'not shown'", () => {
    const openSchemas = ["Project", "Region", "ClientAccount", "Instance"];
    for (const name of openSchemas) {
      const schema = doc.components.schemas[name];
      expect(schema["x-unspecified"], name).toBeDefined();
      expect(schema.additionalProperties, name).not.toBe(false);
    }
    expect(op("listTasks")["x-unspecified"]).toEqual(
      expect.arrayContaining([expect.stringMatching(/response body shape/i)]),
    );
    expect(op("putStorageNotificationEvent")["x-unspecified"]).toEqual(
      expect.arrayContaining([expect.stringMatching(/status code/i)]),
    );
  });
});
