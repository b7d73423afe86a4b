// What the simulator keeps is bounded: finished tasks expire after taskRetentionSeconds of the
// simulated clock, at most LIMITS.finishedTasks are kept, and no client holds more than
// LIMITS.volumesPerRegion volumes in a region whatever its quota says.

import { loadModel, operationById, pollingAdviceFor, taskPollingOf } from "@platform-api/spec";
import { afterEach, describe, expect, it } from "vitest";
import { createSimulator, DEFAULT_CLIENT_ID, DEFAULTS, type Simulator } from "../src/index.js";
import { LIMITS } from "../src/limits.js";
import { createTestSimulator, TASK_STATES, type TestSimulator } from "./harness.js";

let t: TestSimulator | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await t?.close();
  await sim?.close();
  t = undefined;
  sim = undefined;
});

const advice = pollingAdviceFor(loadModel(), operationById(loadModel(), "createVolume").asyncTask?.taskType);
if (!advice.known) throw new Error(advice.reason);
/** A volume task's typical duration in seconds, from the spec. */
const VOLUME = advice.interval.typicalDurationSeconds;

/** Longer than any task's typical duration in the spec's polling table (and the unlisted one). */
const LONGEST_TASK_SECONDS =
  2 *
  Math.max(
    DEFAULTS.unlistedTaskSeconds,
    ...taskPollingOf(loadModel()).intervals.map((row) => row.typicalDurationSeconds.max),
  );

describe("finished tasks expire", () => {
  it("answers a finished task until its retention has passed, then 404, and lists it no more", async () => {
    const retention = 120;
    t = await createTestSimulator({ taskRetentionSeconds: retention, timeScale: 0.001 });
    const created = await t.call("POST", "/cloud/v1/volumes/1/76", {
      body: { name: "kept-a-while", size: 1, source: "new-volume", type_name: "standard" },
    });
    const taskId = String(created.body.tasks[0]);
    t.sim.advance(LONGEST_TASK_SECONDS * 0.001); // past the task's end at this time scale
    const finished = await t.call("GET", `/cloud/v1/tasks/${taskId}`);
    expect(finished.body.state).toBe(TASK_STATES.finished);
    const volumeId = finished.body.created_resources?.volumes[0];

    t.sim.advance(retention - 5);
    expect((await t.call("GET", `/cloud/v1/tasks/${taskId}`)).status).toBe(200);

    t.sim.advance(10);
    const gone = await t.call("GET", `/cloud/v1/tasks/${taskId}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toContain(taskId);
    const listed = await t.call("GET", "/cloud/v1/tasks");
    expect(listed.body.results.map((task) => task.id)).not.toContain(taskId);
    // The volume the task created stays: only the task's record is forgotten.
    const resources = (
      await t.admin<{ volumes: { id: string }[]; tasks: { id: string }[] }>("GET", "/_sim/resources")
    ).body;
    expect(resources.volumes.map((v) => v.id)).toContain(volumeId);
    expect(resources.tasks.map((task) => task.id)).not.toContain(taskId);
  });

  it("keeps a task in flight however long it runs, and counts its retention from its end", async () => {
    // Longer than the retention, shorter than the shortest volume task.
    t = await createTestSimulator({ taskRetentionSeconds: VOLUME.min / 4 });
    const created = await t.call("POST", "/cloud/v1/volumes/1/76", {
      body: { name: "slow", size: 1, source: "new-volume", type_name: "standard" },
    });
    const taskId = String(created.body.tasks[0]);
    t.sim.advance(VOLUME.min / 2);
    expect([TASK_STATES.queued, TASK_STATES.running]).toContain(
      (await t.call("GET", `/cloud/v1/tasks/${taskId}`)).body.state,
    );
    // Jumping far past the end still shows the outcome once: expiry counts from finished_on.
    t.sim.advance(LONGEST_TASK_SECONDS);
    expect((await t.call("GET", `/cloud/v1/tasks/${taskId}`)).status).toBe(404);
  });

  it("keeps at most LIMITS.finishedTasks finished tasks, forgetting the oldest first", async () => {
    const timeScale = 0.001;
    sim = await createSimulator({ env: {}, timeScale });
    const store = sim.store;
    const project = store.project(DEFAULT_CLIENT_ID, 1);
    const region = store.region(76);
    const ids: string[] = [];
    const step = VOLUME.max * timeScale * 1.5;
    for (let i = 0; i < LIMITS.finishedTasks + 50; i++) {
      ids.push(
        String(
          store.createVolume(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_ID, project, region, {
            name: "v",
            source: "new-volume",
            size: 1,
          }).record.id,
        ),
      );
      // Each task ends (within its longest scaled duration) before the next one starts, so the
      // oldest finished are also the oldest created.
      sim.advance(step);
    }
    sim.advance(LONGEST_TASK_SECONDS * 0.001);
    store.settle();
    const kept = new Set(store.tasksOf(DEFAULT_CLIENT_ID).map((task) => String(task.record.id)));
    const createdKept = ids.filter((id) => kept.has(id));
    expect(createdKept).toHaveLength(LIMITS.finishedTasks);
    expect(createdKept).toEqual(ids.slice(-LIMITS.finishedTasks));
    expect(() => store.task(DEFAULT_CLIENT_ID, ids[0] as string)).toThrow(/does not exist/);
    expect(store.createdTasks()).toHaveLength(LIMITS.finishedTasks);
  });
});

describe("volumes are bounded", () => {
  it("ends a create in ERROR past LIMITS.volumesPerRegion, naming the simulator's limit", async () => {
    sim = await createSimulator({ env: {}, timeScale: 0.001 });
    const store = sim.store;
    store.setQuotaLimits(DEFAULT_CLIENT_ID, 76, {
      volume_count_limit: LIMITS.volumesPerRegion * 2,
      volume_size_limit: LIMITS.volumesPerRegion * 2,
    });
    const project = store.project(DEFAULT_CLIENT_ID, 1);
    const region = store.region(76);
    const room = LIMITS.volumesPerRegion - store.volumesOfClient(DEFAULT_CLIENT_ID, 76).count;
    for (let i = 0; i < room; i++)
      store.createVolume(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_ID, project, region, {
        name: "v",
        source: "new-volume",
        size: 1,
      });
    const over = store.createVolume(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_ID, project, region, {
      name: "v",
      source: "new-volume",
      size: 1,
    });
    sim.advance(LONGEST_TASK_SECONDS * 0.001);
    store.settle();
    expect(store.volumesOfClient(DEFAULT_CLIENT_ID, 76).count).toBe(LIMITS.volumesPerRegion);
    expect(over.record.state).toBe(TASK_STATES.failed);
    expect(over.record.error).toContain(String(LIMITS.volumesPerRegion));
    expect(over.record.created_resources).toBeNull();
  });
});

describe("options", () => {
  it("refuses a retention or request timeout it cannot use, naming what is allowed", async () => {
    await expect(createSimulator({ taskRetentionSeconds: 0 })).rejects.toThrow(
      /taskRetentionSeconds.*above 0/,
    );
    await expect(createSimulator({ requestTimeoutMs: 0.5 })).rejects.toThrow(/requestTimeoutMs.*at least 1/);
    expect(DEFAULTS.taskRetentionSeconds).toBeGreaterThan(0);
  });
});
