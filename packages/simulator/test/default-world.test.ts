// The default world: valid against the spec's schemas, made of the spec's own enum values, quota
// names, GPU models, ordering keys and task keys (read here from the spec, not retyped), with the
// platform's real values where the spec states none; then the whole world through every operation,
// with every answer validated against the spec (the harness fails a test on any off-spec answer).

import { createSpecAjv, loadBundle, loadModel, pointer, resolvePointer, specRef } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkWorld,
  createDefaultWorld,
  createSimulator,
  DEFAULT_CLIENT_ID,
  type World,
} from "../src/index.js";
import { CONTENT_MODERATION_CATEGORIES, PLATFORM_REGION_ZONES } from "../src/world/platform-values.js";
import { createTestSimulator, type TestSimulator, walkOffsetList } from "./harness.js";
import { worldPathValues } from "./world-path-values.js";

type SchemaNode = { [keyword: string]: unknown };

const doc = loadBundle();
const model = loadModel();
const world = createDefaultWorld();

const schema = (name: string): SchemaNode => {
  const found = resolvePointer<SchemaNode>(doc, pointer("components", "schemas", name));
  if (!found) throw new Error(`the bundle has no component schema ${name}`);
  return found;
};
const enumOf = (name: string): unknown[] => schema(name).enum as unknown[];
const propertyNames = (name: string): string[] => Object.keys(schema(name).properties as object);
const operation = (operationId: string) => {
  const found = model.operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`the spec has no operation ${operationId}`);
  return found;
};
const taskPolling = () => {
  const polling = model.conventions.taskPolling;
  if (!polling) throw new Error("the spec has no x-task-polling");
  return polling;
};
/** The quotas of the virtual GPU quota check, as its result's `<quota>_requested` fields name them. */
const quotaNames = propertyNames("VirtualGpuQuotaCheckResult")
  .filter((f) => f.endsWith("_requested"))
  .map((f) => f.slice(0, -"_requested".length));

describe("the default world, by the spec", () => {
  it("is a valid world for the spec, and each API record validates against its component schema", () => {
    expect(() => checkWorld(world, doc, "default world")).not.toThrow();
    const ajv = createSpecAjv(doc);
    const records: [string, unknown[]][] = [
      ["ClientAccount", world.clients.map(({ reseller_id: _, ...account }) => account)],
      // The platform documents a project's client_id: the record is served whole.
      ["Project", world.projects],
      ["Region", world.regions],
      ["QuotaLimitRequest", world.quota_limit_requests],
      ["AiTask", world.ai_tasks.map((t) => t.record)],
      ["ProfileTemplate", world.protection_profile_templates],
      ["ProtectionProfile", world.protection_profiles.map((p) => p.record)],
      ["StorageNotificationEvent", world.storage_notification_events.map((e) => e.event)],
      ["Task", world.tasks.map((t) => t.record)],
    ];
    for (const [name, items] of records) {
      const validate = ajv.compile({ $ref: specRef(pointer("components", "schemas", name)) });
      expect(items.length, name).toBeGreaterThan(0);
      for (const item of items) expect(validate(item) ? [] : validate.errors, name).toEqual([]);
    }
  });

  it("places its regions in the platform's zones, as the spec's own examples do", () => {
    const zones: readonly string[] = PLATFORM_REGION_ZONES;
    for (const region of world.regions) expect(zones, region.display_name).toContain(region.zone);
    const exampleZones = zonesIn(doc);
    expect(exampleZones.length).toBeGreaterThan(0);
    for (const zone of exampleZones) expect(zones).toContain(zone);
    // Where the spec states the zones itself, they are these.
    const stated = (schema("Region").properties as Record<string, SchemaNode>).zone?.enum;
    if (stated !== undefined) expect([...zones].sort()).toEqual([...(stated as string[])].sort());
  });

  it("has AI tasks of every name and status of the spec, with the platform's moderation categories", () => {
    const tasks = world.ai_tasks.map((t) => t.record);
    expect(new Set(tasks.map((t) => t.task_name))).toEqual(new Set(enumOf("AiTaskName")));
    expect(new Set(tasks.map((t) => t.status))).toEqual(new Set(enumOf("AiTaskStatus")));
    const categories: readonly unknown[] = CONTENT_MODERATION_CATEGORIES;
    const moderation = tasks.filter((t) => t.task_name === "content-moderation");
    expect(moderation.length).toBeGreaterThan(0);
    for (const task of moderation) expect(categories).toContain(task.task_data.category);
  });

  it("keeps every ordering key of the AI task list, on the record or beside it", () => {
    const ordering = operation("listAiTasks").parameters.find((p) => p.name === "ordering")?.enum ?? [];
    expect(ordering.length).toBeGreaterThan(0);
    for (const entry of world.ai_tasks)
      for (const key of ordering.map(String))
        expect(key in entry.record || key in entry, `AI task ordering key ${key}`).toBe(true);
  });

  it("has quota limit requests in every status of the spec", () => {
    expect(new Set(world.quota_limit_requests.map((r) => r.status))).toEqual(
      new Set(enumOf("QuotaLimitRequestStatus")),
    );
  });

  it("gives every client a limit of every quota of the quota check in every region, and a flavor of every GPU model", () => {
    expect(quotaNames.length).toBeGreaterThan(0);
    for (const clientId of world.clients.map((c) => c.id))
      for (const region of world.regions) {
        const quota = world.quotas.find((q) => q.client_id === clientId && q.region_id === region.id);
        const limits: Record<string, number | undefined> = { ...quota?.limits };
        for (const name of quotaNames)
          expect(limits[`${name}_limit`], `${clientId}/${region.id} ${name}`).toBeTypeOf("number");
      }
    const gpuModels = quotaNames.flatMap((name) => /^gpu_virtual_(.+)_count$/.exec(name)?.[1] ?? []);
    expect(gpuModels.length).toBeGreaterThan(0);
    expect(new Set(world.flavors.map((f) => f.gpu_model))).toEqual(new Set(gpuModels));
  });

  it("has a task history whose keys, states and types are the spec's", () => {
    const polling = taskPolling();
    const taskTypes = (schema("Task").properties as Record<string, SchemaNode>).task_type?.examples;
    for (const { record } of world.tasks) {
      expect(polling.terminalStates).toContain(record.state);
      expect(taskTypes).toContain(record.task_type);
      if (record.created_resources !== null)
        expect(Object.keys(record.created_resources).sort()).toEqual(
          [...polling.createdResourcesKeys].sort(),
        );
    }
    expect(new Set(world.tasks.map((t) => t.record.state))).toEqual(new Set(polling.terminalStates));
  });
});

describe("a world built from another description", () => {
  it("takes the spec's enum values from the description it is given", () => {
    const copy = structuredClone(doc);
    const statuses = schema("AiTaskStatus").enum as string[];
    const renamed = statuses.map((s, i) => (i === 0 ? `${s}_RENAMED` : s));
    (resolvePointer<SchemaNode>(copy, pointer("components", "schemas", "AiTaskStatus")) as SchemaNode).enum =
      renamed;
    const other = createDefaultWorld(1, copy);
    expect(new Set(other.ai_tasks.map((t) => t.record.status))).toEqual(new Set(renamed));
    expect(() => checkWorld(other, copy)).not.toThrow();
    expect(() => checkWorld(world, copy)).toThrow(/\/ai_tasks\/\d+\/record\/status/);
  });

  it("stops with the quota's name when the spec has a quota the world has no sample for", () => {
    const copy = structuredClone(doc);
    const result = resolvePointer<SchemaNode>(
      copy,
      pointer("components", "schemas", "VirtualGpuQuotaCheckResult"),
    );
    const properties = (result as SchemaNode).properties as Record<string, unknown>;
    for (const suffix of ["_limit", "_requested", "_usage"])
      properties[`ipu_count${suffix}`] = { type: "integer" };
    expect(() => createDefaultWorld(1, copy)).toThrow(/ipu_count/);
  });
});

describe("a seed file, by the spec", () => {
  const withTable = <K extends keyof World>(table: K, rows: World[K]): unknown => ({
    ...world,
    [table]: rows,
  });

  it("refuses a limit the spec's regional limits do not name", () => {
    const rows = [{ client_id: 300112, region_id: 76, limits: { warp_drive_count_limit: 1 } }];
    expect(() => checkWorld(withTable("quotas", rows as World["quotas"]), doc)).toThrow(
      /warp_drive_count_limit/,
    );
  });

  it("refuses a usage of a quota the quota check does not have", () => {
    const rows = [{ client_id: 300112, region_id: 76, usage: { warp_drive_count: 1 } }];
    expect(() => checkWorld(withTable("usage", rows as World["usage"]), doc)).toThrow(/warp_drive_count/);
  });

  it("refuses a flavor of a GPU model without a virtual GPU quota", () => {
    const rows = [{ name: "x1-ai-8-64", gpu_model: "x1", gpus_per_server: 1 }];
    expect(() => checkWorld(withTable("flavors", rows as unknown as World["flavors"]), doc)).toThrow(
      /\/flavors\/0\/gpu_model/,
    );
  });
});

let t: TestSimulator;
beforeAll(async () => {
  t = await createTestSimulator({ timeScale: 0.001, rateLimit: 0 });
});
afterAll(() => t.close());

describe("the default world through every operation", () => {
  it("answers on-spec everywhere, and every operation of the spec was called", async () => {
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
        for (const flavor of world.flavors) {
          const limits = await t.call(
            "POST",
            `/cloud/v3/gpu/virtual/${project.id}/${region.id}/check_limits`,
            {
              body: { flavor: flavor.name, servers_count: 2 },
            },
          );
          expect(limits.status).toBe(200);
        }
      }
    }
    expect(instancePairs).toBeGreaterThan(1);

    const active = regions.filter((r) => r.state === "ACTIVE");
    const tasks: string[] = [];
    for (const region of active) {
      const created = await t.call("POST", `/cloud/v1/volumes/1/${region.id}`, {
        body: { name: "v", source: "new-volume", size: 1, type_name: region.available_volume_types[0] },
      });
      tasks.push(...created.body.tasks);
    }
    // Past every task's end at this time scale, by the simulator's clock rather than a real wait.
    t.sim.advance(1);
    for (const id of tasks)
      expect(taskPolling().terminalStates).toContain(
        (await t.call("GET", `/cloud/v1/tasks/${id}`)).body.state,
      );
    expect((await t.call("GET", "/cloud/v1/tasks")).body.count).toBeGreaterThanOrEqual(tasks.length);

    await walkOffsetList(t, "/cloud/reseller/v1/limits_request", 7, {}, t.sim.resellerApiKey);
    let page = (await t.call("GET", "/streaming/ai/tasks", { query: { limit: 25 } })).body;
    for (let i = 0; i < 10 && page.next; i++)
      page = (await t.call("GET", `/streaming/ai/tasks?${page.next}`)).body;
    for (const profile of world.protection_profiles) {
      const read = await t.call("GET", `/security/iaas/v2/profiles/${profile.record.id}`);
      const fields = read.body.fields.map((f: components["schemas"]["ProfileField"]) => ({
        base_field: f.base_field,
        value: f.value,
      }));
      expect(
        (
          await t.call("PUT", `/security/iaas/v2/profiles/${profile.record.id}`, {
            body: { fields, ip_address: read.body.ip_address },
          })
        ).status,
      ).toBe(200);
    }
    await t.call("GET", "/iam/clients/me");
    for (const name of enumOf("StorageNotificationEventName")) {
      expect((await t.call("PUT", "/storage/notifications/v1/event", { body: { name } })).status).toBe(204);
    }

    // A read the walk above does not name is called on the records the fixture registry names,
    // so an operation added to the spec is called here without a line of its own.
    for (const operation of model.operations.filter(
      (o) => o.method === "get" && !t.seen.has(o.operationId),
    )) {
      const values = worldPathValues(world, operation, DEFAULT_CLIENT_ID);
      const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => String(values[name]));
      expect((await t.call("GET", path)).status, operation.operationId).toBe(200);
    }

    expect([...t.seen].sort()).toEqual(model.operations.map((o) => o.operationId).sort());
  });
});

describe("a reproducible world", () => {
  it("is the same world for the same random seed, and another for another", () => {
    expect(createDefaultWorld(7)).toEqual(createDefaultWorld(7));
    expect(createDefaultWorld(7)).not.toEqual(createDefaultWorld(8));
  });

  it("gives the same ids over HTTP for the same random seed and others for another", async () => {
    const ids = async (randomSeed: number) => {
      const sim = await createTestSimulator({ randomSeed });
      try {
        const instances = (await sim.call("GET", "/cloud/v1/instances/1/38")).body.results.map((i) => i.id);
        const task = (
          await sim.call("POST", "/cloud/v1/volumes/1/76", {
            body: { name: "v", source: "new-volume", size: 1 },
          })
        ).body.tasks;
        return [...instances, ...task];
      } finally {
        await sim.close();
      }
    };
    const [a, b, c] = [await ids(7), await ids(7), await ids(8)];
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });
});

describe("simulators of one world in one process", () => {
  // Their instance records are built once and shared (world/instance-records.ts): each must still
  // hold its own.
  it("each hold their own instance records: a change to one's is seen by no other, nor after a reset", async () => {
    const [a, b] = [await createSimulator({ env: {} }), await createSimulator({ env: {} })];
    try {
      const first = a.store.instancesIn(1, 76)[0];
      const name = first?.name;
      expect(name).toBeTypeOf("string");
      if (first) first.name = "changed";
      expect(b.store.instancesIn(1, 76)[0]?.name, "another simulator").toBe(name);
      a.reset();
      expect(a.store.instancesIn(1, 76)[0]?.name, "after a reset").toBe(name);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

/** Every `zone` value in the description: only examples give one a string. */
function zonesIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(zonesIn);
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "zone" && typeof value === "string" ? [value] : zonesIn(value),
  );
}
