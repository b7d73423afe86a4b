// The whole default world through every operation, with every answer validated against the spec
// (the harness fails a test on any off-spec answer).

import { loadBundle } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultWorld } from "../src/index.js";
import { startTestSimulator, type TestSimulator, walkOffsetList } from "./harness.js";

let t: TestSimulator;
beforeAll(async () => {
  t = await startTestSimulator({ timeScale: 0.001, rateLimit: 0 });
});
afterAll(() => t.close());

describe("the default world through every operation", () => {
  it("answers on-spec everywhere, and every operation of the spec was called", async () => {
    const world = createDefaultWorld();
    const projects = (await t.call("GET", "/cloud/v1/projects")).body.results;
    const { items: regions } = await walkOffsetList(t, "/cloud/v1/regions", 2);
    expect(regions).toHaveLength(world.regions.length);

    let instancePairs = 0;
    for (const project of projects) {
      for (const region of regions) {
        const { items, counts } = await walkOffsetList(
          t,
          `/cloud/v1/instances/${project.id}/${region.id}`,
          1000,
        );
        expect(items).toHaveLength(counts[0] as number);
        if (items.length > 0) instancePairs++;
        const limits = await t.call("POST", `/cloud/v3/gpu/virtual/${project.id}/${region.id}/check_limits`, {
          body: { flavor: "g2-ai-128-1024-4000-a100-80-8", servers_count: 2 },
        });
        expect(limits.status).toBe(200);
      }
    }
    expect(instancePairs).toBeGreaterThan(1);

    const active = regions.filter((r) => r.state === "ACTIVE");
    const tasks: string[] = [];
    for (const region of active) {
      const created = await t.call("POST", `/cloud/v1/volumes/1/${region.id}`, {
        body: { size: 1, type_name: region.available_volume_types[0] },
      });
      tasks.push(created.body.tasks[0]);
    }
    // Past every task's end at this time scale, by the simulator's clock rather than a real wait.
    t.sim.advance(1);
    for (const id of tasks)
      expect(["FINISHED", "ERROR"]).toContain((await t.call("GET", `/cloud/v1/tasks/${id}`)).body.state);
    expect((await t.call("GET", "/cloud/v1/tasks")).body.count).toBeGreaterThanOrEqual(tasks.length);

    await walkOffsetList(t, "/cloud/reseller/v1/limits_request", 7, {}, t.sim.resellerApiKey);
    let page = (await t.call("GET", "/streaming/ai/tasks", { query: { limit: 25 } })).body;
    for (let i = 0; i < 10 && page.next; i++)
      page = (await t.call("GET", `/streaming/ai/tasks?${page.next}`)).body;
    for (const profile of world.protection_profiles) {
      const read = await t.call("GET", `/security/iaas/v2/profiles/${profile.record.id}`);
      const fields = read.body.fields.map((f: any) => ({ base_field: f.base_field, value: f.value }));
      expect(
        (
          await t.call("PUT", `/security/iaas/v2/profiles/${profile.record.id}`, {
            body: { fields, ip_address: read.body.ip_address },
          })
        ).status,
      ).toBe(200);
    }
    await t.call("GET", "/iam/clients/me");
    for (const name of [
      "reaching_used_space",
      "reaching_files_quantity",
      "reaching_used_traffic",
      "reaching_used_requests",
    ]) {
      expect((await t.call("PUT", "/storage/notifications/v1/event", { body: { name } })).status).toBe(204);
    }

    const operations = Object.values(loadBundle().paths as Record<string, Record<string, any>>).flatMap(
      (item) => Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : [])),
    );
    expect([...t.seen].sort()).toEqual(operations.sort());
  });
});

describe("a reproducible world", () => {
  it("gives the same ids for the same random seed and others for another", async () => {
    const ids = async (randomSeed: number) => {
      const sim = await startTestSimulator({ randomSeed });
      try {
        const instances = (await sim.call("GET", "/cloud/v1/instances/1/38")).body.results.map(
          (i: any) => i.id,
        );
        const task = (await sim.call("POST", "/cloud/v1/volumes/1/76", { body: { size: 1 } })).body.tasks[0];
        return [...instances, task];
      } finally {
        await sim.close();
      }
    };
    const [a, b, c] = [await ids(7), await ids(7), await ids(8)];
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});
