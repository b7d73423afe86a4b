import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSimulator, type TestSimulator, walkOffsetList } from "./harness.js";

let t: TestSimulator;
beforeAll(async () => {
  t = await startTestSimulator();
});
afterAll(() => t.close());

describe("offset lists: count is the total, results at most limit", () => {
  it("answers the default limit of 1000 from a project/region with more than 1000 instances", async () => {
    const answer = await t.call("GET", "/cloud/v1/instances/1/76");
    expect(answer.status).toBe(200);
    expect(answer.body.count).toBeGreaterThan(1000);
    expect(answer.body.results).toHaveLength(1000);
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
    const beyond = await t.call("GET", "/cloud/v1/regions", { query: { offset: 500 } });
    expect(beyond.body).toEqual({ count: all.body.count, results: [] });
  });

  it("has ACTIVE and not-ACTIVE regions of both access levels with different volume types", async () => {
    const regions = (await t.call("GET", "/cloud/v1/regions")).body.results;
    expect(new Set(regions.map((r: any) => r.state))).toContain("ACTIVE");
    expect(regions.some((r: any) => r.state !== "ACTIVE")).toBe(true);
    expect(new Set(regions.map((r: any) => r.access_level))).toEqual(new Set(["core", "edge"]));
    expect(new Set(regions.map((r: any) => r.available_volume_types.join())).size).toBeGreaterThan(1);
  });

  it.each([
    [{ limit: 0 }, /"limit" must be >= 1.*Allowed: an integer from 1 to 1000/],
    [{ limit: 1001 }, /"limit" must be <= 1000.*Allowed: an integer from 1 to 1000/],
    [{ offset: -1 }, /"offset" must be >= 0.*Allowed: an integer of at least 0/],
    [{ limit: "ten" }, /"limit" must be an integer in decimal digits \(got "ten"\)/],
  ])("refuses %o with 400 naming the parameter and what is allowed", async (query, message) => {
    for (const path of ["/cloud/v1/regions", "/cloud/v1/instances/1/76"]) {
      const answer = await t.call("GET", path, { query });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(message);
    }
  });

  it("lists one default project among several", async () => {
    const projects = (await t.call("GET", "/cloud/v1/projects")).body;
    expect(projects.count).toBeGreaterThan(1);
    expect(projects.results.filter((p: any) => p.is_default)).toHaveLength(1);
  });
});

describe("quota limit requests (reseller)", () => {
  const reseller = () => t.sim.resellerApiKey;

  it("holds requests of several clients in every status", async () => {
    const all = await t.call("GET", "/cloud/reseller/v1/limits_request", { token: reseller() });
    expect(new Set(all.body.results.map((r: any) => r.client_id)).size).toBeGreaterThan(1);
    expect(new Set(all.body.results.map((r: any) => r.status))).toEqual(
      new Set(["done", "in progress", "rejected"]),
    );
  });

  it("filters by repeated status and by client_id, with count the filtered total", async () => {
    const all = (await t.call("GET", "/cloud/reseller/v1/limits_request", { token: reseller() })).body
      .results;
    const statuses = ["done", "in progress"];
    const filtered = await t.call("GET", "/cloud/reseller/v1/limits_request", {
      token: reseller(),
      query: { status: statuses, limit: 3 },
    });
    expect(filtered.body.count).toBe(all.filter((r: any) => statuses.includes(r.status)).length);
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
      all.filter((r: any) => statuses.includes(r.status) && r.client_id === 300113).length,
    );
  });

  it("refuses a status outside the enum, naming the allowed values", async () => {
    const answer = await t.call("GET", "/cloud/reseller/v1/limits_request", {
      token: reseller(),
      query: { status: ["done", "pending"] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/"status".*"done", "in progress", "rejected".*"pending"/);
  });
});

describe("task list filters", () => {
  it("filters by state and task_type", async () => {
    const finished = await t.call("GET", "/cloud/v1/tasks", { query: { state: "FINISHED" } });
    expect(finished.body.results.length).toBeGreaterThan(0);
    expect(finished.body.results.every((x: any) => x.state === "FINISHED")).toBe(true);
    const volumes = await t.call("GET", "/cloud/v1/tasks", {
      query: { task_type: "create_volume", limit: 1 },
    });
    expect(volumes.body.results).toHaveLength(1);
    expect(volumes.body.results[0].task_type).toBe("create_volume");
    const bad = await t.call("GET", "/cloud/v1/tasks", { query: { state: "DONE" } });
    expect(bad.status).toBe(400);
  });
});
