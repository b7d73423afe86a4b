// The platform SDK's create_and_poll for a volume (issue #29), through `observe` to the simulator:
// create, poll the first task at the spec's interval until it ends, then read the volume its
// created_resources names. That read is an operation the spec does not describe (an extension of
// spec/platform-facts.yaml that the simulator serves, marked as such): the judge must count it
// among the undescribed operations, never judge it, and raise no false alarm on the rest.

import { EXTENSION_HEADER } from "@platform-api/simulator";
import { operationById, platformExtension, pollingAdviceFor, taskPollingOf } from "@platform-api/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { specModel } from "../src/facts/spec.js";
import type { Report } from "../src/shared/results.js";
import { startSdkSession } from "./sdk-session.js";

const model = specModel();
const polling = taskPollingOf(model);
const createVolume = operationById(model, "createVolume");
const getTask = operationById(model, "getTask");
const read = platformExtension("volume-get");
const advice = pollingAdviceFor(model, createVolume.asyncTask?.taskType);
if (!advice.known) throw new Error(`createVolume's task has no polling row: ${advice.reason}`);
const { interval } = advice;
/** Task durations are multiplied by it; the SDK-shaped client polls at the spec's interval × it. */
const TIME_SCALE = 0.01;

/** A concrete path of the record's template, as a pattern (each `{name}` one segment). */
const templatePattern = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);

let report: Report;
let readAnswer: { status: number; extension: string | null; id: unknown };
let createdId: string | undefined;
const statuses: string[] = [];

beforeAll(async () => {
  const session = await startSdkSession(TIME_SCALE);
  const { sim } = session;
  const send = async (method: string, path: string, body?: unknown) =>
    session.send({ method, path, ...(body === undefined ? {} : { body }) });
  try {
    const { project, region } = await session.place();
    const place = { project_id: String(project), region_id: String(region) };
    const fill = (template: string, values: Record<string, string>) =>
      template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));

    // As the SDK's create for a new volume sends it: the platform requires `source`.
    const created = await send("POST", fill(createVolume.path, place), {
      name: "sdk-volume",
      source: "new-volume",
      size: 1,
    });
    const taskId = String((created.body.tasks as unknown[])[0]);
    const maxPolls = Math.ceil(interval.typicalDurationSeconds.max / interval.pollIntervalSeconds) + 2;
    for (let poll = 0; poll <= maxPolls && createdId === undefined; poll++) {
      const task = await send("GET", fill(getTask.path, { task_id: taskId }));
      if (polling.terminalStates.includes(String(task.body.state))) {
        const resources = task.body.created_resources as Record<string, string[]> | null;
        createdId = resources?.[String(createVolume.asyncTask?.createdResourcesKey)]?.[0];
        break;
      }
      sim.advance(interval.pollIntervalSeconds * TIME_SCALE);
    }
    if (createdId === undefined) throw new Error(`task ${taskId} did not finish within ${maxPolls} polls`);
    const volume = await send("GET", fill(read.path, { ...place, volume_id: createdId }));
    readAnswer = {
      status: volume.status,
      extension: volume.headers.get(EXTENSION_HEADER),
      id: volume.body.id,
    };
    report = await session.report("sdk-create-and-poll");
    statuses.push(...session.statuses);
  } finally {
    await session.close();
  }
}, 120_000);

describe("the SDK's create_and_poll for a volume, through observe to the simulator", () => {
  it("ends with the volume read answered 200, marked as the record's extension", () => {
    expect(statuses.filter((s) => !/→ 2\d\d$/.test(s))).toEqual([]);
    expect(readAnswer).toEqual({ status: 200, extension: read.id, id: createdId });
  });

  it("counts the read as an operation the spec does not describe, and fails nothing", () => {
    const traffic = report.traffic;
    expect(traffic?.undescribed.count).toBe(1);
    expect(traffic?.undescribed.examples).toEqual([expect.stringMatching(/^GET /)]);
    const [example = ""] = traffic?.undescribed.examples ?? [];
    expect(example.slice("GET ".length)).toMatch(templatePattern(read.path));
    // Every other exchange was judged: the read is the only one left out.
    expect(traffic?.judged).toBe(statuses.length - 1);
    const alarms = report.scenarios.filter((s) => s.status === "failed" || s.status === "warned");
    expect(alarms.map((s) => `${s.id}: ${s.reason}`)).toEqual([]);
    const passed = report.scenarios.filter((s) => s.status === "passed").map((s) => s.id);
    expect(passed).toEqual(
      expect.arrayContaining([`schema.${createVolume.operationId}`, `schema.${getTask.operationId}`]),
    );
  });
});
