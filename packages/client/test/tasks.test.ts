import { MODEL } from "@platform-api/spec/generated/model";
import { operationById, pollingAdviceFor } from "@platform-api/spec/model";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type CloudClient, createClient as createCloudClient } from "../src/generated/products/cloud.js";
import { createClient as createIamClient } from "../src/generated/products/iam.js";
import {
  createClient,
  DEFAULTS,
  paginate,
  recommendedPollIntervalMs,
  TaskFailedError,
  TaskTimeoutError,
  waitForTask,
  waitForTasks,
} from "../src/index.js";
import { withResponse } from "../src/results.js";
import { pollTask, type Task, type TaskPoller } from "../src/tasks.js";
import { KEY, type Script, startScriptedServer } from "./scripted-server.js";

afterEach(() => {
  vi.useRealTimers();
});

const TASK_ID = "5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11";
/** The operation that reads a task: the one the async operations' x-async-task names. */
const createVolume = operationById(MODEL, "createVolume");
const getTask = operationById(MODEL, createVolume.asyncTask?.pollOperationId ?? "");
const idParam = getTask.parameters.find((p) => p.in === "path")?.name;
const taskPath = (id: string) => getTask.path.replace(`{${idParam}}`, id);
/** The spec's interval for volume tasks, the type of the tasks below. */
const volumeAdvice = pollingAdviceFor(MODEL, createVolume.asyncTask?.taskType);
const VOLUME_INTERVAL_MS = volumeAdvice.known ? volumeAdvice.interval.pollIntervalSeconds * 1000 : Number.NaN;
/** A poller without HTTP, for the tests on fake time. */
const pollerOf = (fetch: () => Promise<Task>): TaskPoller => ({
  method: getTask.method.toUpperCase(),
  path: taskPath,
  fetch: async () => withResponse(await fetch(), new Response()),
});
const VOLUME_ID = "726ecfcc-7fd0-4e30-a86b-7b9b6e5c4a3f";
const task = (state: string, extra: Partial<Task> = {}): Task => ({
  id: TASK_ID,
  task_type: "create_volume",
  state: state as Task["state"],
  error: null,
  created_on: "2026-11-21T14:05:02",
  created_resources: null,
  user_id: 7,
  ...extra,
});
const finished = task("FINISHED", {
  finished_on: "2026-11-21T14:05:13",
  created_resources: { instances: [], volumes: [VOLUME_ID], floatingips: [], networks: [] },
});

async function clientFor(script: Script, make: typeof createCloudClient = createClient) {
  const server = await startScriptedServer(script);
  return {
    client: make({
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
    const seen: (string | undefined)[] = [];
    const done = await waitForTask(client, TASK_ID, {
      pollIntervalMs: 20,
      onProgress: (t) => seen.push(t.state),
    });
    expect(done.created_resources.volumes).toEqual([VOLUME_ID]);
    expect(seen).toEqual(["NEW", "RUNNING", "RUNNING", "FINISHED"]);
    expect(server.requests.map((r) => r.path)).toEqual(Array(4).fill(taskPath(TASK_ID)));
  });

  it("resolves with the task's final answer: the last poll's body and its response", async () => {
    const states = [task("RUNNING"), finished];
    const { client } = await clientFor((_r, i) => ({
      body: states[Math.min(i, 1)],
      headers: { "x-poll": String(i) },
    }));
    const done = await waitForTask(client, TASK_ID, { pollIntervalMs: 10 });
    // The body as the server last sent it, nothing added to its JSON.
    expect(JSON.parse(JSON.stringify(done))).toEqual(finished);
    expect(done.response.status).toBe(200);
    expect(done.response.headers.get("x-poll")).toBe("1");
  });

  it("throws TaskFailedError on ERROR with the reason, the quota and the excess", async () => {
    const failed = task("ERROR", {
      error:
        "Quota exceeded: volume_size_limit is 1000 GiB, this request needs 1200 GiB (exceeds by 200 GiB)",
    });
    const { client } = await clientFor((_r, i) => ({ body: i === 0 ? task("RUNNING") : failed }));
    const error = await waitForTask(client, TASK_ID, { pollIntervalMs: 10 }).catch((e) => e);
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
    const done = await waitForTask(client, TASK_ID, { pollIntervalMs: 10 });
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
    const waiting = pollTask(pollerOf(fetchTask), TASK_ID, { pollIntervalMs: 50, timeoutMs: 300 }).catch(
      (e) => {
        settled = true;
        return e;
      },
    );
    await vi.advanceTimersByTimeAsync(300);
    expect(settled).toBe(true);
    const error = await waiting;
    expect(error).toBeInstanceOf(TaskTimeoutError);
    expect(error).toMatchObject({ taskId: TASK_ID, timeoutMs: 300, lastState: "RUNNING" });
    expect(calls).toBeGreaterThanOrEqual(1);
  });

  it("refuses a wait without a finite deadline", async () => {
    const client = createClient({ apiKey: KEY, baseUrl: "http://127.0.0.1:9" });
    await expect(waitForTask(client, TASK_ID, { timeoutMs: Number.POSITIVE_INFINITY })).rejects.toThrow(
      "timeoutMs must be a finite number of milliseconds above 0, got Infinity",
    );
  });

  it("throws a 404 for an unknown task at once instead of waiting", async () => {
    const { client, server } = await clientFor(() => ({ status: 404, body: {} }));
    await expect(waitForTask(client, TASK_ID, { pollIntervalMs: 10 })).rejects.toMatchObject({
      name: "NotFoundError",
      status: 404,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("polls at the spec's recommended interval for the task's type", async () => {
    expect(volumeAdvice.known).toBe(true);
    vi.useFakeTimers();
    let calls = 0;
    const fetchTask = async () => (++calls < 3 ? task("RUNNING") : finished);
    const waiting = pollTask(pollerOf(fetchTask), TASK_ID);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(VOLUME_INTERVAL_MS - 1);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(VOLUME_INTERVAL_MS);
    await expect(waiting).resolves.toMatchObject({ state: "FINISHED" });
    expect(calls).toBe(3);
  });

  it("polls a task type the spec lists no interval for at fallbackPollIntervalMs", async () => {
    const unlisted = "an_unlisted_type";
    expect(pollingAdviceFor(MODEL, unlisted).known).toBe(false);
    vi.useFakeTimers();
    let calls = 0;
    const fetchTask = async () =>
      ++calls < 3 ? task("RUNNING", { task_type: unlisted }) : { ...finished, task_type: unlisted };
    const waiting = pollTask(pollerOf(fetchTask), TASK_ID, { fallbackPollIntervalMs: 1_234 });
    await vi.advanceTimersByTimeAsync(1_233);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1_234);
    await expect(waiting).resolves.toMatchObject({ state: "FINISHED" });
    expect(calls).toBe(3);
  });

  it("reads the intervals from the spec, and falls back to the client's default only for unlisted types", () => {
    const { intervals } = MODEL.conventions.taskPolling;
    const listed = intervals.flatMap((row) => ("taskType" in row ? [row] : []));
    expect(listed.length).toBeGreaterThan(0);
    for (const row of listed)
      expect(recommendedPollIntervalMs(row.taskType)).toBe(row.pollIntervalSeconds * 1000);
    expect(recommendedPollIntervalMs("an_unlisted_type")).toBe(DEFAULTS.fallbackPollIntervalMs);
    expect(recommendedPollIntervalMs("an_unlisted_type", 42)).toBe(42);
  });

  it("refuses a fallback interval that is not a positive finite number", async () => {
    await expect(
      pollTask(
        pollerOf(async () => finished),
        TASK_ID,
        { fallbackPollIntervalMs: 0 },
      ),
    ).rejects.toThrow("fallbackPollIntervalMs must be a finite number of milliseconds above 0, got 0");
  });
});

describe("the spec's task operations", () => {
  // What pollOperationFor and taskPoller take for granted of the compiled-in model.
  const scopes = [undefined, ...MODEL.products];
  it.each(scopes)(
    "are read by one operation with one path parameter (the task id), in scope %s",
    (product) => {
      const ids = new Set(
        MODEL.operations.flatMap((o) =>
          (product === undefined || o.product === product) && "asyncTask" in o
            ? [o.asyncTask.pollOperationId]
            : [],
        ),
      );
      expect(ids.size).toBeLessThanOrEqual(1);
      for (const id of ids) {
        const reader = operationById(MODEL, id);
        expect(reader.parameters.filter((p) => p.in === "path")).toHaveLength(1);
      }
    },
  );
});

describe("which clients waitForTask takes", () => {
  const options = { apiKey: KEY, baseUrl: "http://127.0.0.1:9" };
  const productsWithTasks = new Set<string>(
    MODEL.operations.flatMap((o) => ("asyncTask" in o ? [o.product] : [])),
  );
  const productsWithLists = new Set<string>(
    MODEL.operations.flatMap((o) => (o.method === "get" && "pagination" in o ? [o.product] : [])),
  );

  it("exports waitForTask from every product entry whose operations start a task (x-async-task), paginate from every one with a list, and no other", async () => {
    for (const product of MODEL.products) {
      const file = new URL(`../src/generated/products/${product}.ts`, import.meta.url).pathname;
      const entry: Record<string, unknown> = await import(/* @vite-ignore */ file);
      expect({
        product,
        waitForTask: "waitForTask" in entry,
        waitForTasks: "waitForTasks" in entry,
        paginate: "paginate" in entry,
      }).toEqual({
        product,
        waitForTask: productsWithTasks.has(product),
        waitForTasks: productsWithTasks.has(product),
        paginate: productsWithLists.has(product),
      });
    }
  });

  it("refuses, with a TypeError that says why, the IAM client (whose operations start no task) and anything not made by createClient", async () => {
    expect(productsWithTasks.has("iam")).toBe(false);
    const iam = createIamClient(options) as unknown as CloudClient;
    expect(() => waitForTask(iam, TASK_ID)).toThrow(
      new TypeError("waitForTask: the iam client's operations start no task, so there is none to wait for"),
    );
    expect(() => waitForTasks(iam, [TASK_ID])).toThrow(
      /^waitForTasks: the iam client's operations start no task/,
    );
    const impostor = { ...createCloudClient(options) };
    expect(() => waitForTask(impostor, TASK_ID)).toThrow(
      /^waitForTask: the first argument must be a client made by createClient .*, got object$/,
    );
    expect(() => paginate(null as unknown as CloudClient, "/cloud/v1/regions")).toThrow(
      /^paginate: the first argument must be a client made by createClient .*, got null$/,
    );
  });

  it("takes the cloud client and the whole API's, polling through the client's own calls", async () => {
    expect(productsWithTasks.has("cloud")).toBe(true);
    for (const make of [createCloudClient, createClient]) {
      const { client, server } = await clientFor(() => ({ body: finished }), make);
      const done = await waitForTask(client, TASK_ID, { pollIntervalMs: 10 });
      expect(done.state).toBe("FINISHED");
      expect(server.requests.map((r) => r.path)).toEqual([taskPath(TASK_ID)]);
    }
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
    const done = await waitForTasks(client, ids, { pollIntervalMs: 10 });
    expect(done.map((t) => t.id)).toEqual(ids);
    // Each task's final answer is its own last poll's.
    expect(done.map((t) => t.response.url)).toEqual(ids.map((id) => `${server.url}${taskPath(id)}`));
    expect(new Set(server.requests.map((r) => r.path))).toEqual(new Set(ids.map(taskPath)));
  });

  it("throws the failure once every task has ended", async () => {
    const other = "11111111-2222-4333-8444-555555555555";
    const { client } = await clientFor((request) =>
      request.path.endsWith(other)
        ? { body: task("ERROR", { id: other, error: "volume_count_limit exceeded by 1" }) }
        : { body: finished },
    );
    const error = await waitForTasks(client, [TASK_ID, other], { pollIntervalMs: 10 }).catch((e) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toMatchObject({ quota: "volume_count_limit", excess: 1 });
    expect(error.outcomes.map((o: { status: string }) => o.status)).toEqual(["fulfilled", "rejected"]);
  });
});
