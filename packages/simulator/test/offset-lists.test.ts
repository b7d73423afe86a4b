import { loadModel, operationById, paginatedOperations, requireParameter } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSimulator, TASK_STATES, type TestSimulator, walkOffsetList } from "./harness.js";

// The offset lists' limit and offset, as the spec bounds and defaults them (one Limit and Offset
// parameter is shared by every offset list).
const listInstances = operationById(loadModel(), "listInstances");
const LIMIT = requireParameter(listInstances, "limit", "query");
const OFFSET = requireParameter(listInstances, "offset", "query");
const DEFAULT_LIMIT = Number(LIMIT.default);
const MAX_LIMIT = Number(LIMIT.maximum);
const MIN_LIMIT = Number(LIMIT.minimum);
const MIN_OFFSET = Number(OFFSET.minimum);

let t: TestSimulator;
beforeAll(async () => {
  t = await createTestSimulator();
});
afterAll(() => t.close());

describe("offset lists: count is the total, results at most limit", () => {
  it("has the spec's bounds and default for every offset list", () => {
    const offsetLists = paginatedOperations(loadModel(), "offset");
    expect(offsetLists.map((o) => o.operationId)).toContain("listInstances");
    for (const list of offsetLists) {
      expect(requireParameter(list, list.pagination.limitParam, "query")).toMatchObject({
        default: LIMIT.default,
        minimum: LIMIT.minimum,
        maximum: LIMIT.maximum,
      });
    }
  });

  it("answers the spec's default limit from a project/region with more instances than the largest page", async () => {
    const answer = await t.call("GET", "/cloud/v1/instances/1/76");
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBeGreaterThan(MAX_LIMIT);
    expect(answer.body.results).toHaveLength(DEFAULT_LIMIT);
  });

  it("visits every instance exactly once when walking by limit, with a constant count", async () => {
    const { items, counts } = await walkOffsetList(t, "/cloud/v1/instances/1/76", 300);
    expect(new Set(counts).size).toBe(1);
    expect(items).toHaveLength(counts[0] as number);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it("answers count 0 and an empty results array for a project without instances", async () => {
    const answer = await t.call("GET", "/cloud/v1/instances/3/76");
    expect(answer.body).toEqual({ count: 0, results: [] });
  });

  it("pages regions and keeps count the total", async () => {
    const all = await t.call("GET", "/cloud/v1/regions");
    const { items } = await walkOffsetList(t, "/cloud/v1/regions", 4);
    expect(items).toEqual(all.body.results);
    const beyond = await t.call("GET", "/cloud/v1/regions", { query: { offset: all.body.count + 1 } });
    expect(beyond.body).toEqual({ count: all.body.count, results: [] });
  });

  it("has ACTIVE and not-ACTIVE regions of both access levels with different volume types", async () => {
    const regions = (await t.call("GET", "/cloud/v1/regions")).body.results;
    expect(new Set(regions.map((r) => r.state))).toContain("ACTIVE");
    expect(regions.some((r) => r.state !== "ACTIVE")).toBe(true);
    expect(new Set(regions.map((r) => r.access_level))).toEqual(new Set(["core", "edge"]));
    expect(new Set(regions.map((r) => r.available_volume_types.join())).size).toBeGreaterThan(1);
  });

  const limits = `Allowed: an integer from ${MIN_LIMIT} to ${MAX_LIMIT}`;
  it.each([
    [{ limit: MIN_LIMIT - 1 }, `"limit" must be >= ${MIN_LIMIT} (got ${MIN_LIMIT - 1}). ${limits}.`],
    [{ limit: MAX_LIMIT + 1 }, `"limit" must be <= ${MAX_LIMIT} (got ${MAX_LIMIT + 1}). ${limits}.`],
    [
      { offset: MIN_OFFSET - 1 },
      `"offset" must be >= ${MIN_OFFSET} (got ${MIN_OFFSET - 1}). Allowed: an integer of at least ${MIN_OFFSET}.`,
    ],
    [{ limit: "ten" }, '"limit" must be an integer in decimal digits (got "ten")'],
  ])("refuses %o with 400 naming the parameter and what is allowed", async (query, message) => {
    for (const path of ["/cloud/v1/regions", "/cloud/v1/instances/1/76"]) {
      const answer = await t.call("GET", path, { query });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toContain(message);
    }
  });

  it("lists one default project among several", async () => {
    const projects = (await t.call("GET", "/cloud/v1/projects")).body;
    expect(projects.count).toBeGreaterThan(1);
    expect(projects.results.filter((p) => p.is_default)).toHaveLength(1);
  });
});

describe("quota limit requests (reseller)", () => {
  const reseller = () => t.sim.resellerApiKey;
  const STATUSES = (
    requireParameter(operationById(loadModel(), "listQuotaLimitRequests"), "status", "query").items?.enum ??
    []
  ).map(String);

  it("holds requests of several clients in every status", async () => {
    const all = await t.call("GET", "/cloud/reseller/v1/limits_request", { token: reseller() });
    expect(new Set(all.body.results.map((r) => r.client_id)).size).toBeGreaterThan(1);
    expect(STATUSES.length).toBeGreaterThan(2);
    expect(new Set(all.body.results.map((r) => r.status))).toEqual(new Set(STATUSES));
  });

  it("filters by repeated status and by client_id, with count the filtered total", async () => {
    const all = (await t.call("GET", "/cloud/reseller/v1/limits_request", { token: reseller() })).body
      .results;
    const statuses: string[] = STATUSES.slice(0, 2);
    const filtered = await t.call("GET", "/cloud/reseller/v1/limits_request", {
      token: reseller(),
      query: { status: statuses, limit: 3 },
    });
    expect(filtered.body.count).toBe(all.filter((r) => statuses.includes(r.status)).length);
    expect(filtered.body.results).toHaveLength(3);
    const { items } = await walkOffsetList(
      t,
      "/cloud/reseller/v1/limits_request",
      4,
      { status: statuses, client_id: 300113 },
      reseller(),
    );
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((r) => statuses.includes(r.status) && r.client_id === 300113)).toBe(true);
    expect(items).toHaveLength(
      all.filter((r) => statuses.includes(r.status) && r.client_id === 300113).length,
    );
  });

  it("refuses a status outside the enum, naming the allowed values", async () => {
    const answer = await t.call("GET", "/cloud/reseller/v1/limits_request", {
      token: reseller(),
      query: { status: [STATUSES[0] ?? "", "pending"] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(
      `Query parameter "status" (item 1) must be one of ${STATUSES.map((s) => JSON.stringify(s)).join(", ")} (got "pending").`,
    );
  });
});

describe("task list filters", () => {
  it("filters by state and task_type", async () => {
    const finished = await t.call("GET", "/cloud/v1/tasks", { query: { state: TASK_STATES.finished } });
    expect(finished.body.results.length).toBeGreaterThan(0);
    expect(finished.body.results.every((x) => x.state === TASK_STATES.finished)).toBe(true);
    const taskType = String(operationById(loadModel(), "createVolume").asyncTask?.taskType);
    const volumes = await t.call("GET", "/cloud/v1/tasks", { query: { task_type: taskType, limit: 1 } });
    expect(volumes.body.results).toHaveLength(1);
    expect(volumes.body.results[0]?.task_type).toBe(taskType);
    const bad = await t.call("GET", "/cloud/v1/tasks", { query: { state: "DONE" } });
    expect(bad.status).toBe(400);
  });
});
