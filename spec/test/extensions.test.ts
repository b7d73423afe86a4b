// The seed's conventions are machine-readable in the description, so tools read them instead of
// hard-coding copies. These tests pin the values to the seed.
import { describe, expect, it } from "vitest";
import {
  asyncTaskOperations,
  operationById,
  paginatedOperations,
  taskPollingOf,
  tokenScheme,
} from "../lib/index.js";
import { at, loadBundle, loadModel, objectAt, operationNode } from "./bundle.js";

const doc = loadBundle(undefined, { seed: true });
const model = loadModel(undefined, { seed: true });
const op = (id: string) => operationById(model, id);

describe("machine-readable conventions", () => {
  it("has one server whose base_url defaults to the platform's public address", () => {
    expect(doc.servers).toHaveLength(1);
    expect(at(doc, "servers", 0, "url")).toBe("{base_url}");
    expect(at(doc, "servers", 0, "variables", "base_url", "default")).toBe("https://api.gcore.com");
    expect(model.conventions.defaultBaseUrl).toBe("https://api.gcore.com");
  });

  it("authenticates with a token in the Authorization header and warns about the `$` in tokens", () => {
    for (const name of ["APIKey", "ResellerAPIKey"]) {
      const scheme = objectAt(doc, "components", "securitySchemes", name);
      expect(scheme).toMatchObject({ type: "apiKey", in: "header", name: "Authorization" });
      expect(scheme.description).toContain(`${tokenScheme(model, name).tokenPrefix}<`);
      expect(scheme.description).toContain("`$`");
    }
    expect(doc.security).toEqual([{ APIKey: [] }]);
    const resellerOps = model.operations.filter((o) => o.path.startsWith("/cloud/reseller"));
    expect(resellerOps.map((o) => operationNode(doc, o).security)).toEqual([[{ ResellerAPIKey: [] }]]);
    expect(model.operations.filter((o) => o.security.includes("ResellerAPIKey"))).toEqual(resellerOps);
  });

  it("says which lists page by offset and which by page", () => {
    const paginated = Object.fromEntries(
      paginatedOperations(model).map((o) => [o.operationId, o.pagination?.style]),
    );
    expect(paginated).toEqual({
      listRegions: "offset",
      listInstances: "offset",
      listQuotaLimitRequests: "offset",
      listAiTasks: "page",
    });
    expect(op("listAiTasks").pagination).toMatchObject({
      pageParam: "page",
      limitParam: "limit",
      nextField: "next",
      previousField: "previous",
    });
    expect(op("listRegions").pagination).toMatchObject({
      limitParam: "limit",
      offsetParam: "offset",
      countField: "count",
      itemsField: "results",
    });
  });

  it("says which operations answer with tasks, and what they create", () => {
    expect(asyncTaskOperations(model).map((o) => o.operationId)).toEqual(["createVolume"]);
    expect(op("createVolume").asyncTask).toEqual({
      tasksField: "tasks",
      taskType: "create_volume",
      createdResourcesKey: "volumes",
      pollOperationId: "getTask",
    });
  });

  it("lists the seed's recommended polling intervals and typical durations", () => {
    const polling = taskPollingOf(model);
    expect(polling.operationId).toBe("getTask");
    expect(polling.terminalStates).toEqual(["FINISHED", "ERROR"]);
    // The seed: FINISHED is "completed successfully", ERROR "failed".
    expect(polling.successState).toBe("FINISHED");
    const rows = polling.intervals.map((r) => [
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
    const known = polling.intervals.flatMap((r) => r.taskType ?? []);
    expect(known).toEqual(["create_vm", "create_volume", "delete_vm"]);
  });

  it("states the request-rate and login limits", () => {
    expect(
      model.conventions.rateLimits.map((l) => [l.id, l.limit, l.periodSeconds, l.per, l.exceededStatus]),
    ).toEqual([
      ["request-rate", 100, 1, "ip-address", 429],
      ["login-requests", 5, 60, "ip-address", 429],
      ["failed-logins", 5, 3600, "ip-address", 429],
    ]);
  });

  it("documents an optional Retry-After header on 429 and no invented error body fields", () => {
    const tooMany = objectAt(doc, "components", "responses", "TooManyRequests");
    const header = objectAt(doc, "components", "headers", "RetryAfter");
    expect(at(tooMany, "headers", "Retry-After")).toEqual({ $ref: "#/components/headers/RetryAfter" });
    expect(header.required).toBe(false);
    const errorBody = objectAt(doc, "components", "schemas", "ErrorBody");
    expect(errorBody.type).toBeUndefined();
    expect(errorBody.properties).toBeUndefined();
    expect(errorBody["x-unspecified"]).toContain("Error response body shape.");
  });

  it("marks the deprecated quota field", () => {
    const field = objectAt(
      doc,
      "components",
      "schemas",
      "RegionalLimits",
      "properties",
      "baremetal_gpu_count_limit",
    );
    expect(field.deprecated).toBe(true);
    expect(field.description).toMatch(/sum of/);
  });

  it("marks what the seed leaves open wherever it says 'not shown'", () => {
    const openSchemas = ["Project", "Region", "ClientAccount", "Instance"];
    for (const name of openSchemas) {
      const schema = objectAt(doc, "components", "schemas", name);
      expect(schema["x-unspecified"], name).toBeDefined();
      expect(schema.additionalProperties, name).not.toBe(false);
    }
    expect(op("listTasks").unspecified).toEqual(
      expect.arrayContaining([expect.stringMatching(/response body shape/i)]),
    );
    expect(op("putStorageNotificationEvent").unspecified).toEqual(
      expect.arrayContaining([expect.stringMatching(/status code/i)]),
    );
  });
});
