// The simulator reads the platform's rules from the description it serves, never from facts of its
// own: given a copy whose request rate, offset-list limit bound and default, volume task duration
// and a status enum differ, it follows the copy with no code change. (The repository's end-to-end
// test, scripts/test/spec-facts.test.ts, rebuilds everything from such a copy; this one is quick.)

import { type JsonObject, loadModel, operationById } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulator, DEFAULT_CLIENT_ID, type Simulator } from "../src/index.js";
import { TASK_STATES, tokenPrefix } from "./harness.js";
import { changedSpec, nodeAt } from "./spec-copy.js";

const CHANGED = {
  requestRate: 7,
  limitMaximum: 40,
  limitDefault: 3,
  createVolume: { min: 200, max: 300 },
  status: { from: "rejected", to: "declined" },
};

const model = loadModel();
const volumeTaskType = String(operationById(model, "createVolume").asyncTask?.taskType);

const spec = changedSpec((doc) => {
  const rates = doc["x-rate-limits"] as JsonObject[];
  const all = rates.find((r) => r.appliesTo === "all");
  if (!all) throw new Error("The description has no request rate that applies to all calls.");
  all.limit = CHANGED.requestRate;
  const limit = nodeAt(doc, "#/components/parameters/Limit/schema");
  limit.maximum = CHANGED.limitMaximum;
  limit.default = CHANGED.limitDefault;
  const polling = nodeAt(doc, operationById(model, "getTask").pointer)["x-task-polling"] as JsonObject;
  const row = (polling.intervals as JsonObject[]).find((r) => r.taskType === volumeTaskType);
  if (!row) throw new Error(`x-task-polling lists no ${volumeTaskType}.`);
  row.typicalDurationSeconds = CHANGED.createVolume;
  const status = nodeAt(doc, "#/components/schemas/QuotaLimitRequestStatus");
  status.enum = (status.enum as string[]).map((s) => (s === CHANGED.status.from ? CHANGED.status.to : s));
});

let sim: Simulator;
beforeAll(async () => {
  sim = await createSimulator({ spec, env: {}, timeScale: 1 });
});
afterAll(() => sim.close());

async function get(url: string, token = sim.apiKey, ip = "127.0.0.1") {
  const answer = await sim.app.inject({
    method: "GET",
    url,
    remoteAddress: ip,
    headers: { authorization: `${tokenPrefix}${token}` },
  });
  return { status: answer.statusCode, body: answer.json<JsonObject>() };
}

describe("a changed description", () => {
  it("bounds and defaults the offset lists by it", async () => {
    const page = await get("/cloud/v1/instances/1/76", sim.apiKey, "10.0.0.1");
    expect(page.status).toBe(200);
    expect(page.body.results).toHaveLength(CHANGED.limitDefault);
    const over = await get(
      `/cloud/v1/instances/1/76?limit=${CHANGED.limitMaximum + 1}`,
      sim.apiKey,
      "10.0.0.2",
    );
    expect(over.status).toBe(400);
    expect(over.body.message).toContain(`Allowed: an integer from 1 to ${CHANGED.limitMaximum}`);
  });

  it("takes its enum values", async () => {
    const url = "/cloud/reseller/v1/limits_request?status=";
    expect((await get(url + CHANGED.status.to, sim.resellerApiKey, "10.0.0.3")).status).toBe(200);
    const old = await get(url + CHANGED.status.from, sim.resellerApiKey, "10.0.0.4");
    expect(old.status).toBe(400);
    expect(old.body.message).toContain(`"${CHANGED.status.to}"`);
  });

  it("runs the volume task for its typical duration", async () => {
    const created = await sim.app.inject({
      method: "POST",
      url: "/cloud/v1/volumes/1/76",
      remoteAddress: "10.0.0.5",
      headers: { authorization: `${tokenPrefix}${sim.apiKey}`, "content-type": "application/json" },
      payload: { name: "v", source: "new-volume", size: 1 },
    });
    const [id] = created.json<{ tasks: string[] }>().tasks;
    sim.advance(CHANGED.createVolume.min * 0.9);
    expect((await get(`/cloud/v1/tasks/${id}`, sim.apiKey, "10.0.0.6")).body.state).not.toBe(
      TASK_STATES.finished,
    );
    sim.advance(CHANGED.createVolume.max);
    expect((await get(`/cloud/v1/tasks/${id}`, sim.apiKey, "10.0.0.7")).body.state).toBe(
      TASK_STATES.finished,
    );
  });

  it("limits requests at its rate", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < CHANGED.requestRate + 3; i++)
      statuses.push((await get("/iam/clients/me", sim.apiKey, "10.0.0.99")).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CHANGED.requestRate);
    expect(statuses.at(-1)).toBe(model.conventions.requestRate.exceededStatus);
  });
});

describe("a description the simulator cannot serve", () => {
  it("stops the start when its task states do not fit the task engine (two before a terminal one)", async () => {
    const other = changedSpec((doc) => {
      const state = nodeAt(doc, "#/components/schemas/TaskState");
      state.enum = [...(state.enum as string[]), "CANCELLED"];
    });
    await expect(createSimulator({ spec: other, env: {} })).rejects.toThrow(
      "moves a task through two states before a terminal one",
    );
    await expect(createSimulator({ spec: other, env: {} })).rejects.toThrow(
      /the spec's task states are .*CANCELLED/,
    );
  });

  it("runs a task type its polling table does not list for the simulator's own duration", async () => {
    const other = changedSpec((doc) => {
      const polling = nodeAt(doc, operationById(model, "getTask").pointer)["x-task-polling"] as JsonObject;
      polling.intervals = (polling.intervals as JsonObject[]).filter((r) => r.taskType !== volumeTaskType);
    });
    const unlisted = await createSimulator({ spec: other, env: {}, unlistedTaskSeconds: 42 });
    try {
      const store = unlisted.store;
      const project = store.project(DEFAULT_CLIENT_ID, 1);
      const task = store.createVolume(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_ID, project, store.region(76), {
        name: "v",
        source: "new-volume",
        size: 1,
      });
      unlisted.advance(41);
      store.settle();
      expect(task.record.state).not.toBe(TASK_STATES.finished);
      unlisted.advance(2);
      store.settle();
      expect(task.record.state).toBe(TASK_STATES.finished);
    } finally {
      await unlisted.close();
    }
  });
});
