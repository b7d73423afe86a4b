import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSimulator, type TestSimulator } from "./harness.js";

let t: TestSimulator;
beforeAll(async () => {
  t = await startTestSimulator();
});
afterAll(() => t.close());

const list = (query: Record<string, string | number> = {}) => t.call("GET", "/streaming/ai/tasks", { query });
const follow = (link: string) => t.call("GET", `/streaming/ai/tasks?${link}`);

describe("AI tasks: page lists", () => {
  it("holds tasks of both names and all seven statuses over several pages", async () => {
    const all = (await list({ limit: 1000 })).body;
    expect(new Set(all.results.map((x: any) => x.task_name))).toEqual(
      new Set(["transcription", "content-moderation"]),
    );
    expect(new Set(all.results.map((x: any) => x.status)).size).toBe(7);
    expect(all.count).toBeGreaterThan(30);
  });

  it("answers 10 per page by default and walks every task once by next, with the last next null", async () => {
    const first = await list();
    expect(first.body.results).toHaveLength(10);
    expect(first.body.previous).toBeNull();
    const seen = [...first.body.results];
    let page = first.body;
    for (let i = 0; i < 20 && page.next; i++) {
      page = (await follow(page.next)).body;
      expect(page.count).toBe(first.body.count);
      seen.push(...page.results);
    }
    expect(page.next).toBeNull();
    expect(seen).toHaveLength(first.body.count);
    expect(new Set(seen.map((x) => x.task_id)).size).toBe(seen.length);
  });

  it("keeps the filters in next and previous, which lead to the neighbour pages", async () => {
    const second = await list({ task_name: "transcription", page: 2, limit: 5 });
    expect(second.body.next).toBe("task_name=transcription&page=3&limit=5");
    expect(second.body.previous).toBe("task_name=transcription&page=1&limit=5");
    const third = await follow(second.body.next);
    const first = await follow(second.body.previous);
    expect(third.body.previous).toBe("task_name=transcription&page=2&limit=5");
    expect(first.body.results).toEqual((await list({ task_name: "transcription", limit: 5 })).body.results);
    for (const page of [first, second, third])
      expect(page.body.results.every((x: any) => x.task_name === "transcription")).toBe(true);
  });

  it("orders by started_at descending by default and by task_id ascending on request", async () => {
    const all = (await list({ limit: 1000 })).body.results.map((x: any) => x.task_id);
    const started = new Map(t.sim.store.world.ai_tasks.map((x) => [x.record.task_id, x.started_at]));
    const times = all.map((id: string) => started.get(id) as string);
    expect(times).toEqual([...times].sort().reverse());
    const byId = (await list({ limit: 1000, ordering: "task_id" })).body.results.map((x: any) => x.task_id);
    expect(byId).toEqual([...byId].sort());
  });

  it("filters by status, task_id and task_name; count is the filtered total", async () => {
    const success = (await list({ status: "SUCCESS", limit: 1000 })).body;
    expect(success.results.every((x: any) => x.status === "SUCCESS")).toBe(true);
    expect(success.count).toBe(success.results.length);
    const one = success.results[0].task_id;
    const byId = (await list({ task_id: one })).body;
    expect(byId.count).toBe(1);
    expect(byId.results[0].task_id).toBe(one);
  });

  it("searches task_id, task_name, status and task_data, partially and in any case", async () => {
    const keynote = (await list({ search: "KEYNOTE", limit: 1000 })).body.results;
    expect(keynote.length).toBeGreaterThan(0);
    expect(keynote.every((x: any) => JSON.stringify(x.task_data).includes("keynote"))).toBe(true);
    const moderation = (await list({ search: "moderat", limit: 1000 })).body.results;
    expect(moderation.length).toBeGreaterThan(0);
    expect(moderation.every((x: any) => x.task_name === "content-moderation")).toBe(true);
    const revoked = (await list({ search: "revok", limit: 1000 })).body.results;
    expect(revoked.length).toBeGreaterThan(0);
    expect(revoked.every((x: any) => x.status === "REVOKED")).toBe(true);
    const idPart = keynote[0].task_id.slice(0, 8);
    expect((await list({ search: idPart })).body.results.map((x: any) => x.task_id)).toContain(
      keynote[0].task_id,
    );
  });

  it("answers an empty last page past the end, and refuses page 0 and an unknown ordering", async () => {
    const past = (await list({ page: 99 })).body;
    expect(past.results).toEqual([]);
    expect(past.next).toBeNull();
    expect((await list({ page: 0 })).status).toBe(400);
    const ordering = await list({ ordering: "created" });
    expect(ordering.status).toBe(400);
    expect(ordering.body.message).toMatch(/"ordering".*"task_id", "status", "task_name", "started_at"/);
  });
});
