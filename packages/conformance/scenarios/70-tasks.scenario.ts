// Tasks: a volume create answers task ids at once; polled at the spec's recommended interval, the
// task's state only moves forward and reaches success (FINISHED), which names the new volume under
// its created_resources key and nothing under the other keys; a create beyond a quota ends in
// failure (ERROR) naming the quota, with created_resources null and nothing created. The quota
// check (check_limits, which needs a GPU flavor) sizes the create just beyond the quota and gives
// the excess the error must name, and the usage before and after; without it, a volume larger
// than any plausible quota still meets the failure path. Runs with --allow-writes. The poll
// operation, the states, the keys and the polling interval are the spec's (x-async-task,
// x-task-polling). Every answer is judged against the spec by the schema results.

import type { PollingInterval } from "@platform-api/spec";
import type { components, operations } from "@platform-api/spec/generated/openapi";
import { expectStatus } from "../src/active/lists.js";
import { check, type Need, type ScenarioApi, scenario } from "../src/active/scenario.js";
import {
  operationAt,
  requestExample,
  requestSchemaPointer,
  requiredOf,
  schemaAt,
  successSchemaPointer,
} from "../src/facts/spec.js";
import { pollingFor, taskFacts } from "../src/facts/tasks.js";
import type { Answer, Http } from "../src/http/http.js";
import { sleep } from "../src/http/http.js";
import type { RunContext } from "../src/shared/context.js";
import { fieldOf } from "../src/shared/json.js";

type Task = components["schemas"]["Task"];
type CheckResult = components["schemas"]["VirtualGpuQuotaCheckResult"];
type GetTask = operations["getTask"];

const NEEDS: Need[] = ["writes", "state", "project", "region"];
/** The registry's rules that judge this file's polls (src/rules/task-rules.ts). */
const TASK_RULES = [
  "tasks.poll.state-moves-forward",
  "tasks.finished.created-id",
  "tasks.error.has-reason",
  "tasks.error.created-resources-null",
];
const VOLUMES = "/cloud/v1/volumes/{project_id}/{region_id}";
const CHECK_LIMITS = "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const createVolume = operationAt("post", VOLUMES);
const asyncTask = createVolume.asyncTask;
if (!asyncTask) throw new Error(`POST ${VOLUMES} has no x-async-task in the spec.`);
const TASKS_FIELD = asyncTask.tasksField;
const CREATED_KEY = asyncTask.createdResourcesKey ?? "";
const facts = taskFacts(asyncTask);
const { finished: FINISHED, failed: FAILED } = facts;
const OTHER_KEYS = facts.createdResourcesKeys.filter((key) => key !== CREATED_KEY);
const POLL_PARAM = facts.poll.parameters.find((p) => p.in === "path")?.name ?? "";
/** The spec's polling row for the volume's task type, or why there is none. */
const polling: PollingInterval | string = pollingFor(asyncTask.taskType);

// The check_limits quotas of the created resource ("volume" of `volumes`): its count and its size.
const QUOTAS = requiredOf(schemaAt(successSchemaPointer(operationAt("post", CHECK_LIMITS))))
  .filter((f) => f.endsWith("_limit"))
  .map((f) => f.slice(0, -"_limit".length));
const resource = CREATED_KEY.replace(/s$/, "");
const COUNT_QUOTA = QUOTAS.find((q) => q === `${resource}_count`);
const SIZE_QUOTA = QUOTAS.find((q) => q === `${resource}_size`);
const amount = (result: CheckResult, field: string): number => {
  const value = fieldOf(result, field);
  return typeof value === "number" ? value : Number.NaN;
};
/** A quota's name as an error may write it: "volume_size" or "volume size", any case. */
const namePattern = (quota: string) => new RegExp(quota.replace(/_/g, "[_ ]"), "i");
// Without the quota check: the largest size the spec allows a volume, else the largest 32-bit
// integer (2 EiB in GiB): beyond any plausible quota, and a size a server that types it as int32
// still reads.
const sizeMaximum = schemaAt(requestSchemaPointer(createVolume), "properties", "size")?.maximum;
const BEYOND_ANY_QUOTA = typeof sizeMaximum === "number" ? sizeMaximum : 2 ** 31 - 1;

interface Polled {
  taskId: string;
  states: string[];
  answers: Answer[];
  last: Task | undefined;
}

/** The shared story of this file: one create, its polls, one create beyond a quota. */
const story: {
  create?: Answer;
  taskId?: string;
  probe?: Answer;
  polled?: Polled;
  quota?: {
    polled: Polled;
    /** What the quota check tells (with a GPU flavor): the quota reached, the excess, the usage. */
    computed?: { quota: string; excess: number; before: CheckResult };
  };
} = {};

/** The polling row, or a skip saying the spec gives none (the suite invents no interval). */
function pollingOrSkip(api: Pick<ScenarioApi, "skip">): PollingInterval {
  return typeof polling === "string" ? api.skip(polling) : polling;
}

/** The first task id of a create's answer (under the spec's tasks field), if it has one. */
function taskIdOf(answer: Answer): string | undefined {
  const tasks = fieldOf(answer.body, TASKS_FIELD);
  const first: unknown = Array.isArray(tasks) ? tasks[0] : undefined;
  return typeof first === "string" ? first : undefined;
}

/** Polls at the spec's interval (scaled) until a terminal state and once more, or the deadline. */
async function pollTask(http: Http, run: RunContext, row: PollingInterval, taskId: string): Promise<Polled> {
  const interval = row.pollIntervalSeconds * 1000 * run.timeScale;
  // Four times the longest typical duration, never below 2 s: a slow platform is not a deviation.
  const deadline = Date.now() + Math.max(2000, row.typicalDurationSeconds.max * 4 * 1000 * run.timeScale);
  const polled: Polled = { taskId, states: [], answers: [], last: undefined };
  let terminalSeen = 0;
  while (Date.now() < deadline && terminalSeen < 2) {
    const answer = await http.send<GetTask>({
      method: "GET",
      path: facts.poll.path,
      params: { [POLL_PARAM]: taskId },
    });
    polled.answers.push(answer);
    expectStatus(answer, 200);
    polled.last = answer.body;
    const state = String(fieldOf(answer.body, "state"));
    polled.states.push(state);
    if (state === FINISHED || FAILED.includes(state)) terminalSeen++;
    if (terminalSeen < 2) await sleep(terminalSeen === 1 ? 0 : interval);
  }
  return polled;
}

// Allowed values of source are not shown by the seed; the spec's example of the body shows one (a
// value the platform's published description also lists, which the merged types require).
type VolumeBody = components["schemas"]["CreateVolumeRequest"];
const exampleSource = requestExample(createVolume)?.source;

function volumeBody(run: RunContext, size: number): VolumeBody {
  if (typeof exampleSource !== "string")
    throw new Error("The spec's example of a volume creation body shows no source.");
  return {
    name: `conformance-${Date.now().toString(36)}`,
    size,
    // Values read from the spec, narrowed to its generated type.
    source: exampleSource as VolumeBody["source"],
    ...(run.discovered.volumeType ? { type_name: run.discovered.volumeType as VolumeBody["type_name"] } : {}),
  };
}

scenario(
  {
    id: "tasks.create.answers-tasks",
    feeds: TASK_RULES,
    title: "POST /cloud/v1/volumes answers task ids at once",
    severity: "must",
    operation: "createVolume",
    needs: NEEDS,
    calls: ["POST /cloud/v1/volumes/{project}/{region} {name, size: 1, source, type_name}"],
  },
  async ({ http, run, created, place }) => {
    const answer = await http.call({
      method: "POST",
      path: VOLUMES,
      params: place(),
      body: volumeBody(run, 1),
    });
    story.create = answer;
    expectStatus(answer, 200, 201);
    const tasks = fieldOf(answer.body, TASKS_FIELD);
    check(
      Array.isArray(tasks) && tasks.length >= 1,
      `the answer has no ${TASKS_FIELD} array: ${answer.text.slice(0, 200)}`,
    );
    check(
      tasks.every((t: unknown) => typeof t === "string" && UUID.test(t)),
      `task ids are not UUID strings: ${JSON.stringify(tasks)}`,
    );
    story.taskId = taskIdOf(answer);
    created({ type: "task", id: String(story.taskId), ...place() });
  },
);

scenario(
  {
    id: "tasks.poll.reaches-finished",
    feeds: TASK_RULES,
    title: `the volume's task reaches ${FINISHED} within four times its typical duration`,
    severity: "must",
    operation: facts.poll.operationId,
    needs: NEEDS,
    calls: [
      `GET ${facts.poll.path} every ${typeof polling === "string" ? "?" : polling.pollIntervalSeconds} s (× time scale)`,
    ],
  },
  async ({ http, run, skip, created, cite, place }) => {
    const row = pollingOrSkip({ skip });
    const taskId = story.taskId;
    if (taskId === undefined) return skip("no task to poll (see tasks.create.answers-tasks)");
    // Every poll goes to the judge, whose tasks.poll.state-moves-forward follows the states.
    story.polled = await pollTask(http, run, row, taskId);
    const polled = story.polled;
    cite(...polled.answers.slice(-2));
    const state = polled.last?.state;
    const seconds = (row.typicalDurationSeconds.max * 4 * run.timeScale).toFixed(1);
    check(
      state === undefined || !FAILED.includes(state),
      `the task ended in ${state}: ${polled.last?.error}`,
    );
    check(
      state === FINISHED,
      `the task is still ${state} after ${seconds} s (states: ${polled.states.join(" → ")})`,
    );
    const id = createdIds(polled.last)[0];
    if (typeof id === "string") created({ type: resource, id, ...place(), task_id: polled.taskId });
  },
);

/** What a task lists under the created resource's key (anything: it is checked, not trusted). */
function createdIds(task: Task | undefined): unknown[] {
  const ids = fieldOf(task?.created_resources, CREATED_KEY);
  return Array.isArray(ids) ? ids : [];
}

function finishedTask(api: ScenarioApi): Task {
  const last = story.polled?.last;
  if (!last || last.state !== FINISHED)
    return api.skip(`the task did not reach ${FINISHED} (see tasks.poll.reaches-finished)`);
  api.cite(story.polled?.answers.at(-1) as Answer);
  return last;
}

scenario(
  {
    id: "tasks.finished.other-keys-empty",
    title: `${FINISHED} holds empty arrays under ${OTHER_KEYS.join(", ")}`,
    severity: "must",
    operation: facts.poll.operationId,
    needs: NEEDS,
    calls: ["(the last poll)"],
  },
  async (api) => {
    const task = finishedTask(api);
    const value = (key: string): unknown => fieldOf(task.created_resources, key);
    const wrong = OTHER_KEYS.filter((key) => {
      const v = value(key);
      return !Array.isArray(v) || v.length > 0;
    });
    check(
      wrong.length === 0,
      `not an empty array: ${wrong.map((k) => `${k}=${JSON.stringify(value(k))}`).join(", ")}`,
    );
  },
);

scenario(
  {
    id: "tasks.finished.finished-on-no-error",
    title: `${FINISHED} has finished_on and a null error`,
    severity: "must",
    operation: facts.poll.operationId,
    needs: NEEDS,
    calls: ["(the last poll)"],
  },
  async (api) => {
    const task = finishedTask(api);
    check(
      typeof task.finished_on === "string" && task.finished_on !== "",
      `finished_on is ${JSON.stringify(task.finished_on)}`,
    );
    // Absent is null too: the platform's own descriptions give error a default of null.
    check(
      task.error === null || task.error === undefined,
      `error is ${JSON.stringify(task.error)}; expected null`,
    );
  },
);

async function limitsNow(http: Http, params: Place, flavor: string): Promise<CheckResult> {
  const answer = await http.call({
    method: "POST",
    path: CHECK_LIMITS,
    params,
    body: { flavor, servers_count: 1 },
  });
  expectStatus(answer, 200);
  return answer.body;
}

type Place = ReturnType<ScenarioApi["place"]>;

/**
 * How far beyond a quota the create goes: with the quota check, just beyond the size quota (or
 * one volume beyond a full count quota), by an excess the error must name; without it, beyond any
 * plausible quota.
 */
async function beyondQuota(http: Http, params: Place, flavor: string | undefined) {
  if (!flavor || !COUNT_QUOTA || !SIZE_QUOTA) return { size: BEYOND_ANY_QUOTA, computed: undefined };
  const before = await limitsNow(http, params, flavor);
  const used = (quota: string) => amount(before, `${quota}_usage`);
  const allowed = (quota: string) => amount(before, `${quota}_limit`);
  const countFull = used(COUNT_QUOTA) >= allowed(COUNT_QUOTA);
  const excess = countFull ? used(COUNT_QUOTA) + 1 - allowed(COUNT_QUOTA) : 7;
  const size = countFull ? 1 : allowed(SIZE_QUOTA) - used(SIZE_QUOTA) + excess;
  const quota = countFull ? COUNT_QUOTA : SIZE_QUOTA;
  return { size, computed: { quota, excess, before } };
}

const FAILED_TEXT = FAILED.join(" or ");

/** The task of the create beyond a quota, when it ended in a failure state; else a skip saying why. */
function failedQuotaTask(api: Pick<ScenarioApi, "skip" | "cite">): Task {
  const quota = story.quota;
  if (quota) api.cite(...quota.polled.answers.slice(-1));
  const task = quota?.polled.last;
  if (!task || task.state === undefined || !FAILED.includes(task.state))
    return api.skip(`no task ended in ${FAILED_TEXT} (see tasks.quota.error-names-quota)`);
  return task;
}

scenario(
  {
    id: "tasks.quota.error-names-quota",
    feeds: TASK_RULES,
    title: `a volume beyond the volume quota ends as ${FAILED_TEXT} whose error names the quota`,
    severity: "must",
    operation: `createVolume, ${facts.poll.operationId}`,
    needs: NEEDS,
    calls: [
      "POST …/check_limits (limits and usage; with a GPU flavor)",
      `POST /cloud/v1/volumes {size: ${SIZE_QUOTA}_limit − ${SIZE_QUOTA}_usage + 7, or ${BEYOND_ANY_QUOTA} without the quota check}`,
      `GET ${facts.poll.path} until ${FAILED_TEXT}`,
    ],
  },
  async ({ http, run, skip, created, place }) => {
    const row = pollingOrSkip({ skip });
    const params = place();
    const { size, computed } = await beyondQuota(http, params, run.discovered.gpuFlavor);
    const answer = await http.call({ method: "POST", path: VOLUMES, params, body: volumeBody(run, size) });
    if (answer.status === 400)
      return skip(
        `the target refused a ${size} GiB volume with 400 before any task, so no quota was reached (${answer.text.slice(0, 160)})`,
      );
    expectStatus(answer, 200, 201);
    const taskId = taskIdOf(answer);
    check(typeof taskId === "string", `the answer has no task id: ${answer.text.slice(0, 200)}`);
    created({ type: "task", id: taskId, ...params });
    const polled = await pollTask(http, run, row, taskId);
    story.quota = { polled, computed };
    const task = polled.last;
    if (task?.state === FINISHED)
      created({ type: resource, id: String(createdIds(task)[0]), ...params, task_id: taskId });
    const state = task?.state;
    const limits = computed
      ? ` (${computed.quota} limit ${amount(computed.before, `${computed.quota}_limit`)}, usage ${amount(computed.before, `${computed.quota}_usage`)})`
      : "";
    check(
      state !== undefined && FAILED.includes(state),
      `a ${size} GiB volume${limits} ended as ${state}, not ${FAILED_TEXT}`,
    );
    const error = typeof task?.error === "string" ? task.error : "";
    check(
      error.trim() !== "",
      `the ${state} task's error is ${JSON.stringify(task?.error)}: no reason given`,
    );
    // With the quota check, the quota it shows reached; without, any quota the spec names.
    const named = computed ? [computed.quota] : QUOTAS;
    check(
      named.some((quota) => namePattern(quota).test(error)),
      `the error "${error}" names no quota (${named.join(", ")})`,
    );
  },
);

scenario(
  {
    id: "tasks.quota.error-names-excess",
    title: `the ${FAILED_TEXT} task's error names the excess the quota check computes`,
    severity: "must",
    operation: facts.poll.operationId,
    needs: NEEDS,
    calls: [`(the ${FAILED_TEXT} task above)`],
  },
  async (api) => {
    const task = failedQuotaTask(api);
    const computed = story.quota?.computed;
    if (!computed)
      return api.skip(
        "the excess is known only from the quota check (check_limits), which needs a virtual GPU flavor: pass --gpu-flavor",
      );
    const error = String(task.error ?? "");
    if (!namePattern(computed.quota).test(error))
      return api.skip(`the error does not name ${computed.quota} (see tasks.quota.error-names-quota)`);
    check(
      new RegExp(`(^|[^0-9])${computed.excess}([^0-9]|$)`).test(error),
      `the error "${error}" does not name the excess ${computed.excess} (${computed.quota})`,
    );
  },
);

scenario(
  {
    id: "tasks.quota.nothing-created",
    title: `after an ${FAILED_TEXT} task the ${resource} usage is what it was before`,
    severity: "must",
    operation: "checkVirtualGpuClusterLimits",
    needs: NEEDS,
    calls: ["POST …/check_limits (usage after)"],
  },
  async (api) => {
    const task = failedQuotaTask(api);
    const computed = story.quota?.computed;
    const flavor = api.run.discovered.gpuFlavor;
    if (!computed || !flavor)
      return api.skip(
        "the usage is read only by the quota check (check_limits), which needs a virtual GPU flavor: pass --gpu-flavor",
      );
    const after = await limitsNow(api.http, api.place(), flavor);
    const usage = [COUNT_QUOTA, SIZE_QUOTA].filter((q) => q !== undefined).map((q) => `${q}_usage`);
    const grew = usage.filter((f) => amount(after, f) > amount(computed.before, f));
    check(
      grew.length === 0,
      `usage grew after the ${task.state} task: ${grew.map((f) => `${f} ${amount(computed.before, f)}→${amount(after, f)}`).join(", ")}`,
    );
  },
);
