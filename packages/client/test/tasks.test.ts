import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient, recommendedPollIntervalMs, TaskFailedError, TaskTimeoutError } from "../src/index.js";
import { type Task, waitForTask } from "../src/tasks.js";
import { KEY, type Script, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.useRealTimers();
});

const TASK_ID = "5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11";
const VOLUME_ID = "726ecfcc-7fd0-4e30-a86b-7b9b6e5c4a3f";
const task = (state: string, extra: Partial<Task> = {}): Task => ({
  id: TASK_ID,
  task_type: "create_volume",
  state: state as Task["state"],
  error: null,
  created_on: "2026-11-21T14:05:02",
  created_resources: null,
  ...extra,
});
const finished = task("FINISHED", {
  finished_on: "2026-11-21T14:05:13",
  created_resources: { instances: [], volumes: [VOLUME_ID], floatingips: [], networks: [] },
});

async function clientFor(script: Script) {
  server = await startScriptedServer(script);
  return {
    client: createClient({
      apiKey: KEY,
      baseUrl: server.url,
      rateLimit: false,
      retry: { initialDelayMs: 10, maxDelayMs: 20 },
    }),
    server,
  };
}

describe("waitForTask", () => {
  it("polls NEW → RUNNING → FINISHED and resolves with the created resources", async () => {
    const states = [task("NEW"), task("RUNNING"), task("RUNNING"), finished];
    const { client, server } = await clientFor((_r, i) => ({ body: states[Math.min(i, 3)] }));
    const seen: string[] = [];
    const done = await client.waitForTask(TASK_ID, {
      pollIntervalMs: 20,
      onProgress: (t) => seen.push(t.state),
    });
    expect(done.created_resources.volumes).toEqual([VOLUME_ID]);
    expect(seen).toEqual(["NEW", "RUNNING", "RUNNING", "FINISHED"]);
    expect(server.requests.map((r) => r.path)).toEqual(Array(4).fill(`/cloud/v1/tasks/${TASK_ID}`));
  });

  it("throws TaskFailedError on ERROR with the reason, the quota and the excess", async () => {
    const failed = task("ERROR", {
      error:
        "Quota exceeded: volume_size_limit is 1000 GiB, this request needs 1200 GiB (exceeds by 200 GiB)",
    });
    const { client } = await clientFor((_r, i) => ({ body: i === 0 ? task("RUNNING") : failed }));
    const error = await client.waitForTask(TASK_ID, { pollIntervalMs: 10 }).catch((e) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({
      quota: "volume_size_limit",
      excess: 200,
      reason: failed.error,
      task: failed,
    });
    expect(error.message).toBe(`Task ${TASK_ID} (create_volume) failed: ${failed.error}`);
  });

  it("keeps waiting through 429, 500 and a lost connection while polling", async () => {
    const { client, server } = await clientFor((_r, i) => {
      const script = [
        { status: 429, body: {} },
        { status: 500, body: {} },
        "reset" as const,
        { body: task("RUNNING") },
      ];
      return script[i] ?? { body: finished };
    });
    const done = await client.waitForTask(TASK_ID, { pollIntervalMs: 10 });
    expect(done.state).toBe("FINISHED");
    expect(server.requests.length).toBeGreaterThanOrEqual(5);
  });

  it("gives up with TaskTimeoutError at the deadline, naming the last state", async () => {
    // Fake time: a poll answered late on a loaded machine cannot leave the last state unknown.
    vi.useFakeTimers();
    let calls = 0;
    const fetchTask = async () => {
      calls++;
      return task("RUNNING");
    };
    let settled = false;
    const waiting = waitForTask(fetchTask, TASK_ID, { pollIntervalMs: 50, timeoutMs: 300 }).catch((e) => {
      settled = true;
      return e;
    });
    await vi.advanceTimersByTimeAsync(300);
    expect(settled).toBe(true);
    const error = await waiting;
    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect(error).toMatchObject({ taskId: TASK_ID, timeoutMs: 300, lastState: "RUNNING" });
    expect(calls).toBeGreaterThanOrEqual(1);
  });

  it("refuses a wait without a finite deadline", async () => {
    const client = createClient({ apiKey: KEY, baseUrl: "http://127.0.0.1:9" });
    await expect(client.waitForTask(TASK_ID, { timeoutMs: Number.POSITIVE_INFINITY })).rejects.toThrow(
      "timeoutMs must be a finite number of milliseconds above 0, got Infinity",
    );
  });

  it("throws a 404 for an unknown task at once instead of waiting", async () => {
    const { client, server } = await clientFor(() => ({ status: 404, body: {} }));
    await expect(client.waitForTask(TASK_ID, { pollIntervalMs: 10 })).rejects.toMatchObject({
      name: "NotFoundError",
      status: 404,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("polls at the spec's recommended interval for the task's type", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fetchTask = async () => (++calls < 3 ? task("RUNNING") : finished);
    const waiting = waitForTask(fetchTask, TASK_ID);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(waiting).resolves.toMatchObject({ state: "FINISHED" });
    expect(calls).toBe(3);
  });

  it("reads the intervals from the spec", () => {
    expect(recommendedPollIntervalMs("create_volume")).toBe(5_000);
    expect(recommendedPollIntervalMs("create_vm")).toBe(5_000);
    expect(recommendedPollIntervalMs("delete_vm")).toBe(5_000);
    expect(recommendedPollIntervalMs("an_unlisted_type")).toBe(5_000);
  });
});

describe("waitForTasks", () => {
  it("waits for every task of a write call, not only the first", async () => {
    const ids = [TASK_ID, "11111111-2222-4333-8444-555555555555"];
    const { client, server } = await clientFor((request) => {
      const id = request.path.split("/").pop() as string;
      const polls = server?.requests.filter((r) => r.path === request.path).length ?? 0;
      return { body: polls < 3 ? task("RUNNING", { id }) : { ...finished, id } };
    });
    const done = await client.waitForTasks(ids, { pollIntervalMs: 10 });
    expect(done.map((t) => t.id)).toEqual(ids);
    expect(new Set(server.requests.map((r) => r.path))).toEqual(
      new Set(ids.map((id) => `/cloud/v1/tasks/${id}`)),
    );
  });

  it("throws the failure once every task has ended", async () => {
    const other = "11111111-2222-4333-8444-555555555555";
    const { client } = await clientFor((request) =>
      request.path.endsWith(other)
        ? { body: task("ERROR", { id: other, error: "volume_count_limit exceeded by 1" }) }
        : { body: finished },
    );
    const error = await client.waitForTasks([TASK_ID, other], { pollIntervalMs: 10 }).catch((e) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ quota: "volume_count_limit", excess: 1 });
    expect(error.outcomes.map((o: { status: string }) => o.status)).toEqual(["fulfilled", "rejected"]);
  });
});
