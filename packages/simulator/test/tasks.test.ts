import { loadModel, operationById, pollingAdviceFor, taskPollingOf } from "@platform-api/spec";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Volume } from "../src/world/types.js";
import { createTestSimulator, TASK_STATES, type TestSimulator } from "./harness.js";

const model = loadModel();
const polling = taskPollingOf(model);
const volumeTask = operationById(model, "createVolume").asyncTask;
const advice = pollingAdviceFor(model, volumeTask?.taskType);
if (!advice.known)
  throw new Error(`The spec gives createVolume's task no typical duration: ${advice.reason}`);
/** create_volume's typical duration in seconds, from the spec's x-task-polling. */
const TYPICAL = advice.interval.typicalDurationSeconds;

// Time scale 1 with the admin clock: tasks progress only when the test moves the clock. A fresh
// simulator per test (in-process, so cheap): each test starts from the default world.
let t: TestSimulator;
beforeEach(async () => {
  t = await createTestSimulator();
});
afterEach(() => t.close());

/** The spec's task states, in the order a task moves through them. */
const ORDER: readonly string[] = polling.states;

interface Created {
  volumes: Volume[];
  tasks: { id: string }[];
}

/** Posts a new empty volume; the platform requires its name and source (the merged spec's). */
async function createVolume(project: number, region: number, fields: Record<string, unknown>) {
  const body = { name: "v", source: "new-volume", ...fields };
  const answer = await t.call("POST", `/cloud/v1/volumes/${project}/${region}`, { body });
  expect(answer.status).toBe(200);
  expect(answer.body.tasks).toHaveLength(1);
  return String(answer.body.tasks[0]);
}

/** Polls every `step` simulated seconds until a terminal state; returns the states seen. */
async function pollUntilDone(taskId: string, step = 0.5, maxSeconds = TYPICAL.max * 4) {
  const states: string[] = [];
  for (let elapsed = 0; elapsed <= maxSeconds; elapsed += step) {
    const task = await t.call("GET", `/cloud/v1/tasks/${taskId}`);
    expect(task.status).toBe(200);
    states.push(task.body.state);
    if (polling.terminalStates.includes(task.body.state)) return { states, task: task.body };
    t.sim.advance(step);
  }
  throw new Error(
    `task ${taskId} did not finish within ${maxSeconds} simulated seconds: ${states.join(" ")}`,
  );
}

describe("create a volume: an asynchronous task", () => {
  it("answers tasks at once, then moves NEW → RUNNING → FINISHED within create_volume's typical duration", async () => {
    const id = await createVolume(1, 76, {
      name: "logs",
      size: 20,
      type_name: "ssd_hiiops",
      source: "new-volume",
    });
    const { states, task } = await pollUntilDone(id);
    expect(states[0]).toBe(TASK_STATES.queued);
    expect(states).toContain(TASK_STATES.running);
    const ranks = states.map((s) => ORDER.indexOf(s));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    const seconds = (states.length - 1) * 0.5;
    expect(seconds).toBeGreaterThanOrEqual(TYPICAL.min);
    expect(seconds).toBeLessThanOrEqual(TYPICAL.max + 0.5);
    expect(task).toMatchObject({ state: TASK_STATES.finished, error: null, task_type: volumeTask?.taskType });
    expect(task.finished_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?$/);
    // Every key of the spec's created_resources, the new volume under the operation's own.
    const resources: Record<string, string[]> = task.created_resources ?? {};
    const createdKey = String(volumeTask?.createdResourcesKey);
    const volumes = resources[createdKey];
    expect(volumes).toHaveLength(1);
    expect(Object.keys(resources).sort()).toEqual([...polling.createdResourcesKeys].sort());
    for (const key of polling.createdResourcesKeys.filter((k) => k !== createdKey))
      expect(resources[key]).toEqual([]);
    const created = await t.admin<Created>("GET", "/_sim/resources");
    expect(created.body.volumes.map((v) => v.id)).toEqual(volumes);
    expect(created.body.volumes[0]).toMatchObject({
      name: "logs",
      size: 20,
      type_name: "ssd_hiiops",
      region_id: 76,
      project_id: 1,
    });
  });

  it("creates nothing until the task has finished", async () => {
    await createVolume(1, 76, { size: 5 });
    expect((await t.admin<Created>("GET", "/_sim/resources")).body.volumes).toEqual([]);
  });

  it("scales durations by timeScale", async () => {
    // The simulator's clock reads Date.now (faked before the simulator exists, so its clock takes
    // the fake): real time passes for it only when the test says so, without waiting.
    vi.useFakeTimers({ toFake: ["Date"] });
    const timeScale = 0.001;
    const fast = await createTestSimulator({ timeScale });
    try {
      const answer = await fast.call("POST", "/cloud/v1/volumes/1/76", {
        body: { name: "v", source: "new-volume", size: 5 },
      });
      const id = answer.body.tasks[0];
      const state = async () => (await fast.call("GET", `/cloud/v1/tasks/${id}`)).body.state;
      expect(await state()).toBe(TASK_STATES.queued);
      // Past the longest typical duration scaled, short of the shortest one unscaled.
      const elapsedMs = TYPICAL.max * 1000 * timeScale + 1;
      expect(elapsedMs).toBeLessThan(TYPICAL.min * 1000);
      vi.setSystemTime(Date.now() + elapsedMs);
      expect(await state()).toBe(TASK_STATES.finished);
    } finally {
      await fast.close();
      vi.useRealTimers();
    }
  });

  it("answers 404 for an unknown task id and for another client's task", async () => {
    const id = await createVolume(1, 76, { size: 5 });
    expect((await t.call("GET", "/cloud/v1/tasks/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect(
      (await t.call("GET", `/cloud/v1/tasks/${id}`, { token: "300113$sim-other-client-a4e1b7c9" })).status,
    ).toBe(404);
    expect((await t.call("GET", "/cloud/v1/tasks/not-a-uuid")).status).toBe(404);
  });

  it("answers 404 for an unknown region or another client's project, and 400 for a region not ACTIVE", async () => {
    expect(
      (
        await t.call("POST", "/cloud/v1/volumes/1/999", {
          body: { name: "v", source: "new-volume", size: 5 },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.call("POST", "/cloud/v1/volumes/4/76", { body: { name: "v", source: "new-volume", size: 5 } }))
        .status,
    ).toBe(404);
    const inactive = await t.call("POST", "/cloud/v1/volumes/1/118", {
      body: { name: "v", source: "new-volume", size: 5 },
    });
    expect(inactive.status).toBe(400);
    expect(inactive.body.message).toMatch(/ACTIVE/);
  });

  it("refuses a volume type the region does not offer, listing the ones it does", async () => {
    const answer = await t.call("POST", "/cloud/v1/volumes/1/112", {
      body: { name: "v", source: "new-volume", size: 5, type_name: "ultra" },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/"type_name".*available_volume_types: standard/);
  });

  it("takes a volume from a snapshot without size: the platform requires only name, source and snapshot_id", async () => {
    const id = await createVolume(1, 76, {
      source: "snapshot",
      snapshot_id: "5f0c2a44-9a1e-4c55-8d3b-2f6f8a7e9b10",
    });
    const { task } = await pollUntilDone(id);
    expect(task.state).toBe(TASK_STATES.finished);
    const noSnapshot = await t.call("POST", "/cloud/v1/volumes/1/76", {
      body: { name: "x", source: "snapshot" },
    });
    expect(noSnapshot.status).toBe(400);
    expect(noSnapshot.body.message).toMatch(/"snapshot_id"/);
    const image = await t.call("POST", "/cloud/v1/volumes/1/76", {
      body: { name: "x", source: "image", size: 2 },
    });
    expect(image.status).toBe(400);
    expect(image.body.message).toMatch(/"image_id"/);
  });

  it("refuses a body without size and a size of the wrong type", async () => {
    const none = await t.call("POST", "/cloud/v1/volumes/1/76", {
      body: { name: "x", source: "new-volume" },
    });
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/"size"/);
    const wrong = await t.call("POST", "/cloud/v1/volumes/1/76", {
      body: { name: "v", source: "new-volume", size: "10" },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/Body field "size" must be integer/);
  });
});

describe("quotas: a write beyond one ends as an ERROR task", () => {
  // Frankfurt (38): volume_size_limit 100 GiB with 80 GiB in use, volume_count_limit 3 with 2 in use.
  it("names volume_size_limit and the excess, with created_resources null and nothing created", async () => {
    const id = await createVolume(1, 38, { size: 30 });
    const { states, task } = await pollUntilDone(id);
    expect(states.at(-1)).toBe(TASK_STATES.failed);
    expect(task.created_resources).toBeNull();
    expect(task.error).toMatch(/volume_size_limit/);
    expect(task.error).toMatch(/exceed it by 10 GiB/);
    expect((await t.admin<Created>("GET", "/_sim/resources")).body.volumes).toEqual([]);
  });

  it("names volume_count_limit when the count runs out, counting volumes still being created", async () => {
    const first = await createVolume(1, 38, { size: 5 });
    const second = await createVolume(1, 38, { size: 5 });
    const [a, b] = [await pollUntilDone(first), await pollUntilDone(second)];
    expect(a.task.state).toBe(TASK_STATES.finished);
    expect(b.task.state).toBe(TASK_STATES.failed);
    expect(b.task.error).toMatch(/volume_count_limit is 3; 3 in use and 1 requested exceed it by 1/);
  });

  it("follows quotas set on the admin surface", async () => {
    const set = await t.admin("PUT", "/_sim/quotas/300112/76", { body: { volume_size_limit: 61 } });
    expect(set.status).toBe(200);
    const { task } = await pollUntilDone(await createVolume(1, 76, { size: 2 }));
    expect(task.error).toMatch(
      /volume_size_limit is 61 GiB; 60 GiB in use and 2 GiB requested exceed it by 1 GiB/,
    );
  });

  it("refuses admin quota names that are not limits", async () => {
    const answer = await t.admin("PUT", "/_sim/quotas/300112/76", { body: { volume_size: 1 } });
    expect(answer.status).toBe(400);
  });
});

describe("admin clock and reset", () => {
  it("only moves the clock forward, and reset brings back the starting world", async () => {
    expect((await t.admin("POST", "/_sim/clock", { body: { advance_seconds: -1 } })).status).toBe(400);
    const id = await createVolume(1, 76, { size: 5 });
    const pastTheEnd = TYPICAL.max + 1;
    expect((await t.admin("POST", "/_sim/clock", { body: { advance_seconds: pastTheEnd } })).status).toBe(
      200,
    );
    expect((await t.call("GET", `/cloud/v1/tasks/${id}`)).body.state).toBe(TASK_STATES.finished);
    expect((await t.admin("POST", "/_sim/reset")).status).toBe(200);
    expect((await t.call("GET", `/cloud/v1/tasks/${id}`)).status).toBe(404);
    expect((await t.admin<Created>("GET", "/_sim/resources")).body).toEqual({ volumes: [], tasks: [] });
  });
});
