// The volume read the platform's SDK ends `create_and_poll` with (issue #29): an operation the spec
// does not describe, served as an extension from spec/platform-facts.yaml's record of it. The SDK's
// steps in order — create, poll the task at the spec's interval until it ends, read the volume its
// created_resources names — answered as the platform documents, marked as outside the spec, with
// the auth and the rate limit of every route. Time is the simulator's clock, moved by the test.

import {
  createSpecAjv,
  loadModel,
  operationById,
  type PlatformExtension,
  platformExtension,
  platformExtensions,
  pollingAdviceFor,
  taskPollingOf,
} from "@platform-api/spec";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkExtensions, EXTENSION_HEADER } from "../src/handlers/extensions.js";
import { createSimulator, DEFAULT_TOKENS } from "../src/index.js";
import { createTestSimulator, type TestSimulator } from "./harness.js";
import { changedSpec, nodeAt } from "./spec-copy.js";

const model = loadModel();
const polling = taskPollingOf(model);
const createVolume = operationById(model, "createVolume");
const getTask = operationById(model, "getTask");
const createdKey = createVolume.asyncTask?.createdResourcesKey;
const advice = pollingAdviceFor(model, createVolume.asyncTask?.taskType);
if (!advice.known || createdKey === undefined)
  throw new Error("The spec gives createVolume's task no polling row or created_resources key.");
const { interval } = advice;
const read = platformExtension("volume-get");
/** Task durations are multiplied by it; the SDK-shaped client polls at the spec's interval × it. */
const TIME_SCALE = 0.01;
const pollSeconds = interval.pollIntervalSeconds * TIME_SCALE;

/** The record's path with each `{name}` filled in. */
const pathOf = (extension: PlatformExtension, values: Record<string, string | number>) =>
  extension.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`No value for ${name} of ${extension.path}`);
    return encodeURIComponent(String(value));
  });

const ajv = createSpecAjv(undefined);
/** Where the answer breaks the record's fields of its 200 (top-level ones and array items). */
function breaksRecord(body: Record<string, unknown>): string[] {
  const fields = read.fields.filter((f) => f.status === "200");
  const found: string[] = [];
  for (const field of fields) {
    const [name = "", member] = field.field.split("[].");
    const values = member === undefined ? [body[name]] : ((body[name] as Record<string, unknown>[]) ?? []);
    for (const holder of member === undefined ? [body] : values) {
      const key = member ?? name;
      const value = (holder as Record<string, unknown>)[key];
      if (value === undefined) {
        if (field.required) found.push(`${field.field} is missing`);
        continue;
      }
      if (!ajv.validate(field.schema, value)) found.push(`${field.field}: ${ajv.errorsText()}`);
    }
  }
  const listed = new Set(fields.map((f) => f.field.split("[].")[0]));
  for (const key of Object.keys(body)) if (!listed.has(key)) found.push(`${key} is not in the record`);
  return found;
}

let t: TestSimulator;
// The simulator's clock and the rate limiter read Date: held still, time moves only when a test
// advances the clock, however long a loaded machine takes to carry the calls.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.UTC(2026, 10, 21, 12, 0, 0));
});
afterEach(async () => {
  vi.useRealTimers();
  await t.close();
});

async function placeOf() {
  const projects = await t.call("GET", "/cloud/v1/projects");
  const regions = await t.call("GET", "/cloud/v1/regions");
  const project = projects.body.results.find((p) => p.is_default) ?? projects.body.results[0];
  const active = regions.body.results.filter((r) => r.state === "ACTIVE");
  const [region, otherRegion] = active;
  if (!project || !region || !otherRegion) throw new Error("The world has no project or two ACTIVE regions.");
  return { project, region, otherRegion };
}

/** The SDK's create_and_poll: create, poll the first task to its end, read what it created. */
async function createAndPoll(project: number, region: number, body: Record<string, unknown>) {
  const created = await t.call("POST", `/cloud/v1/volumes/${project}/${region}`, { body });
  expect(created.status).toBe(200);
  const taskId = String(created.body.tasks[0]);
  const maxPolls = Math.ceil(interval.typicalDurationSeconds.max / interval.pollIntervalSeconds) + 2;
  for (let poll = 0; poll <= maxPolls; poll++) {
    const task = await t.call(
      "GET",
      getTask.path.replace("{task_id}", taskId) as `/cloud/v1/tasks/${string}`,
    );
    expect(task.status).toBe(200);
    if (polling.terminalStates.includes(task.body.state)) {
      expect(task.body.state).toBe(polling.successState);
      const ids = (task.body.created_resources as Record<string, string[]> | null | undefined)?.[
        String(createdKey)
      ];
      expect(ids).toHaveLength(1);
      const volumeId = String(ids?.[0]);
      const answer = await t.call(
        "GET",
        pathOf(read, { project_id: project, region_id: region, volume_id: volumeId }),
      );
      return { taskId, volumeId, polls: poll, answer, finishedOn: String(task.body.finished_on) };
    }
    t.sim.advance(pollSeconds);
  }
  throw new Error(`The task ${taskId} did not end within ${maxPolls} polls.`);
}

describe("the volume read create_and_poll ends with (an extension of the spec)", () => {
  it("answers 200 with the volume the finished task names, its fields as the record lists them", async () => {
    t = await createTestSimulator({ timeScale: TIME_SCALE });
    const { project, region } = await placeOf();
    const body = {
      name: "sdk-volume",
      source: "new-volume",
      size: 3,
      type_name: region.available_volume_types[0],
    };
    const { taskId, volumeId, polls, answer, finishedOn } = await createAndPoll(project.id, region.id, body);
    // Polled at the scaled interval, the task ends within its scaled typical duration.
    const { min, max } = interval.typicalDurationSeconds;
    expect(polls * pollSeconds).toBeGreaterThanOrEqual(min * TIME_SCALE);
    expect(polls * pollSeconds).toBeLessThanOrEqual(max * TIME_SCALE + pollSeconds);
    expect(answer.status).toBe(200);
    expect(answer.headers.get(EXTENSION_HEADER)).toBe(read.id);
    const volume = answer.body as unknown as Record<string, unknown>;
    expect(breaksRecord(volume)).toEqual([]);
    expect(volume).toMatchObject({
      id: volumeId,
      name: body.name,
      size: body.size,
      volume_type: body.type_name,
      project_id: project.id,
      region_id: region.id,
      region: region.display_name,
      creator_task_id: taskId,
    });
    // It came into being when its task finished (task times are UTC without an offset).
    expect(Date.parse(String(volume.created_at))).toBe(Date.parse(`${finishedOn}Z`));
    // The record's check finds a field out of place (it can fail).
    expect(breaksRecord({ ...volume, size: "3", invented: 1 })).toHaveLength(2);
    // A read-only token reads it too: the read shares createVolume's security, and it is a read.
    const readOnly = await t.call(
      "GET",
      pathOf(read, { project_id: project.id, region_id: region.id, volume_id: volumeId }),
      { token: DEFAULT_TOKENS.readOnly },
    );
    expect(readOnly.status).toBe(200);
  });

  it("answers 404 for an unknown volume and for the volume from another client, project or region, 401 without a token", async () => {
    t = await createTestSimulator({ timeScale: TIME_SCALE });
    const { project, region, otherRegion } = await placeOf();
    const { volumeId } = await createAndPoll(project.id, region.id, {
      name: "v",
      source: "new-volume",
      size: 1,
    });
    const at = (values: Record<string, string | number>) =>
      pathOf(read, { project_id: project.id, region_id: region.id, volume_id: volumeId, ...values });
    const refusals = [
      [at({ volume_id: "00000000-0000-4000-8000-000000000000" }), {}],
      [at({ region_id: otherRegion.id }), {}],
      [at({ project_id: project.id + 1000 }), {}],
      [at({ project_id: "one" }), {}],
      [at({}), { token: DEFAULT_TOKENS.otherClient }],
    ] as const;
    for (const [path, options] of refusals) {
      const answer = await t.call("GET", path, options);
      expect(answer.status, path).toBe(404);
      expect(answer.body.message, path).toEqual(expect.any(String));
      expect(answer.headers.get(EXTENSION_HEADER), path).toBe(read.id);
    }
    for (const token of [null, DEFAULT_TOKENS.expired]) {
      const answer = await t.call("GET", at({}), { token });
      expect(answer.status).toBe(401);
      expect(answer.headers.get(EXTENSION_HEADER)).toBe(read.id);
    }
    expect((await t.call("GET", at({}))).status).toBe(200);
  });

  it("counts against the rate limit like every route, its refusal marked too", async () => {
    t = await createTestSimulator({ rateLimit: 2 });
    const path = pathOf(read, {
      project_id: 1,
      region_id: 1,
      volume_id: "00000000-0000-4000-8000-000000000000",
    });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const answer = await t.call("GET", path);
      statuses.push(answer.status);
      expect(answer.headers.get(EXTENSION_HEADER)).toBe(read.id);
    }
    expect(statuses).toEqual([404, 404, model.conventions.requestRate.exceededStatus]);
  });
});

describe("the extension registry", () => {
  it("stops the start when the record and EXTENSIONS do not name the same extensions", () => {
    expect(() => checkExtensions(platformExtensions())).not.toThrow();
    expect(() => checkExtensions([])).toThrow(new RegExp(read.id));
    expect(() => checkExtensions([...platformExtensions(), { ...read, id: "not-served" }])).toThrow(
      /not-served/,
    );
  });

  it("stops the start when the served description describes an extension's path itself", async () => {
    // The spec's task read moved to the extension's path: the description's route wins, no clash.
    const other = changedSpec((doc) => {
      const paths = nodeAt(doc, "#/paths");
      paths[read.path] = { [read.method]: nodeAt(doc, `#/paths/${getTask.path.replaceAll("/", "~1")}/get`) };
      delete paths[getTask.path];
    });
    await expect(createSimulator({ spec: other, env: {} })).rejects.toThrow(
      new RegExp(`describes GET .*${read.id}`),
    );
  });

  it("stops the start when the record's volume statuses lack the one a created volume answers", () => {
    const withoutStatuses: PlatformExtension = {
      ...read,
      fields: read.fields.map((f) =>
        f.field === "status" ? { ...f, schema: { type: "string", enum: ["x"] } } : f,
      ),
    };
    expect(() => checkExtensions([withoutStatuses])).toThrow(/status/);
  });
});
