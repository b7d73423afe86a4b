import { loadBundle, loadModel, operationById, requireParameter } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enumOf } from "../src/world/spec-facts.js";
import { createTestSimulator, type TestSimulator } from "./harness.js";

const listAiTasks = operationById(loadModel(), "listAiTasks");
/** The page size without `limit`, as the spec defaults it. */
const DEFAULT_LIMIT = Number(requireParameter(listAiTasks, "limit", "query").default);
const ORDERING = (requireParameter(listAiTasks, "ordering", "query").enum ?? []).map(String);
const NAMES = enumOf(loadBundle(), "AiTaskName");
const STATUSES = enumOf(loadBundle(), "AiTaskStatus");
/** More than the world's AI tasks: one page holds them all. */
const ALL = 1000;

let t: TestSimulator;
beforeAll(async () => {
  t = await createTestSimulator();
});
afterAll(() => t.close());

const list = (query: Record<string, string | number> = {}) => t.call("GET", "/streaming/ai/tasks", { query });
const follow = (link: string) => t.call("GET", `/streaming/ai/tasks?${link}`);

describe("AI tasks: page lists", () => {
  it("holds tasks of every name and status over several pages", async () => {
    const all = (await list({ limit: ALL })).body;
    expect(new Set(all.results.map((x) => x.task_name))).toEqual(new Set(NAMES));
    expect(new Set(all.results.map((x) => x.status))).toEqual(new Set(STATUSES));
    expect(all.count).toBeGreaterThan(3 * DEFAULT_LIMIT);
    expect(all.count).toBeLessThan(ALL);
  });

  it("answers the spec's default page size and walks every task once by next, with the last next null", async () => {
    const first = await list();
    expect(first.body.results).toHaveLength(DEFAULT_LIMIT);
    expect(first.body.previous).toBeNull();
    const seen = [...first.body.results];
    let page = first.body;
    for (let i = 0; i < 20 && page.next; i++) {
      page = (await follow(page.next)).body;
      expect(page.count).toBe(first.body.count);
      seen.push(...page.results);
    }
    expect(page.next).toBeNull();
    expect(seen).toHaveLength(Number(first.body.count));
    expect(new Set(seen.map((x) => x.task_id)).size).toBe(seen.length);
  });

  it("keeps the filters in next and previous, which lead to the neighbour pages", async () => {
    const second = await list({ task_name: "transcription", page: 2, limit: 5 });
    expect(second.body.next).toBe("task_name=transcription&page=3&limit=5");
    expect(second.body.previous).toBe("task_name=transcription&page=1&limit=5");
    const third = await follow(String(second.body.next));
    const first = await follow(String(second.body.previous));
    expect(third.body.previous).toBe("task_name=transcription&page=2&limit=5");
    expect(first.body.results).toEqual((await list({ task_name: "transcription", limit: 5 })).body.results);
    for (const page of [first, second, third])
      expect(page.body.results.every((x) => x.task_name === "transcription")).toBe(true);
  });

  it("orders by started_at descending by default and by task_id ascending on request", async () => {
    const all = (await list({ limit: ALL })).body.results.map((x) => x.task_id);
    const started = new Map(t.sim.store.world.ai_tasks.map((x) => [x.record.task_id, x.started_at]));
    const times = all.map((id) => started.get(id));
    expect(times).toEqual([...times].sort().reverse());
    const byId = (await list({ limit: ALL, ordering: "task_id" })).body.results.map((x) => x.task_id);
    expect(byId).toEqual([...byId].sort());
  });

  it("filters by status, task_id and task_name; count is the filtered total", async () => {
    const success = (await list({ status: "SUCCESS", limit: ALL })).body;
    expect(success.results.every((x) => x.status === "SUCCESS")).toBe(true);
    expect(success.count).toBe(success.results.length);
    const one = String(success.results[0]?.task_id);
    const byId = (await list({ task_id: one })).body;
    expect(byId.count).toBe(1);
    expect(byId.results[0]?.task_id).toBe(one);
  });

  it("searches task_id, task_name, status and task_data, partially and in any case", async () => {
    const keynote = (await list({ search: "KEYNOTE", limit: ALL })).body.results;
    expect(keynote.length).toBeGreaterThan(0);
    expect(keynote.every((x) => JSON.stringify(x.task_data).includes("keynote"))).toBe(true);
    const moderation = (await list({ search: "moderat", limit: ALL })).body.results;
    expect(moderation.length).toBeGreaterThan(0);
    expect(moderation.every((x) => x.task_name === "content-moderation")).toBe(true);
    const revoked = (await list({ search: "revok", limit: ALL })).body.results;
    expect(revoked.length).toBeGreaterThan(0);
    expect(revoked.every((x) => x.status === "REVOKED")).toBe(true);
    const id = String(keynote[0]?.task_id);
    expect((await list({ search: id.slice(0, 8) })).body.results.map((x) => x.task_id)).toContain(id);
  });

  it("answers an empty last page past the end, and refuses page 0 and an unknown ordering", async () => {
    const past = (await list({ page: 99 })).body;
    expect(past.results).toEqual([]);
    expect(past.next).toBeNull();
    expect((await list({ page: 0 })).status).toBe(400);
    const ordering = await list({ ordering: "created" });
    expect(ordering.status).toBe(400);
    expect(ordering.body.message).toContain(
      `Query parameter "ordering" must be one of ${ORDERING.map((o) => JSON.stringify(o)).join(", ")} (got "created").`,
    );
  });
});
