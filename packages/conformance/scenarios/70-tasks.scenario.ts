// Tasks: a volume create answers task ids at once; polled at the spec's recommended interval, the
// task's state only moves forward and reaches FINISHED, which names the new volume under
// `volumes` and nothing under the other keys; a create beyond a quota ends as ERROR naming the
// quota and the excess, with created_resources null and nothing created. Runs with --allow-writes.

import { loadBundle } from "@platform-api/spec";
import type { RunContext } from "../src/context.js";
import type { Answer, Http } from "../src/http.js";
import { sleep } from "../src/http.js";
import { checkAgainstSpec, expectStatus, pollIntervalSeconds } from "../src/lists.js";
import { check, type Need, type ScenarioApi, scenario } from "../src/scenario.js";

const NEEDS: Need[] = ["writes", "state"];
const VOLUMES = "/cloud/v1/volumes/{project_id}/{region_id}";
const TASK = "/cloud/v1/tasks/{task_id}";
const CHECK_LIMITS = "/cloud/v3/gpu/virtual/{project_id}/{region_id}/check_limits";
const RANK: Record<string, number> = { NEW: 0, RUNNING: 1, FINISHED: 2, ERROR: 2 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const { poll, maxDuration } = pollIntervalSeconds(loadBundle(), "create_volume");

interface Polled {
  taskId: string;
  states: string[];
  answers: Answer[];
  last: Record<string, any> | undefined;
}

/** The shared story of this file: one create, its polls, one create beyond a quota. */
const story: {
  create?: Answer;
  probe?: Answer;
  polled?: Polled;
  quota?: {
    polled: Polled;
    quota: string;
    excess: number;
    before: Record<string, number>;
    after?: Record<string, number>;
  };
} = {};

const where = (run: RunContext) => ({
  project_id: run.discovered.projectId,
  region_id: run.discovered.regionId,
});

/** Polls every `poll` seconds (scaled) until FINISHED or ERROR and once more, or the deadline. */
async function pollTask(http: Http, run: RunContext, taskId: string): Promise<Polled> {
  const interval = poll * 1000 * run.timeScale;
  // Four times the longest typical duration, never below 2 s: a slow platform is not a deviation.
  const deadline = Date.now() + Math.max(2000, maxDuration * 4 * 1000 * run.timeScale);
  const polled: Polled = { taskId, states: [], answers: [], last: undefined };
  let terminalSeen = 0;
  while (Date.now() < deadline && terminalSeen < 2) {
    const answer = await http.call({ method: "GET", path: TASK, params: { task_id: taskId } });
    polled.answers.push(answer);
    expectStatus(answer, 200);
    polled.last = answer.body;
    polled.states.push(String(answer.body?.state));
    if (answer.body?.state === "FINISHED" || answer.body?.state === "ERROR") terminalSeen++;
    if (terminalSeen < 2) await sleep(terminalSeen === 1 ? 0 : interval);
  }
  return polled;
}

function volumeBody(run: RunContext, size: number) {
  return {
    name: `conformance-${Date.now().toString(36)}`,
    size,
    source: "new-volume",
    ...(run.discovered.volumeType ? { type_name: run.discovered.volumeType } : {}),
  };
}

scenario(
  {
    id: "tasks.create.answers-tasks",
    title: "POST /cloud/v1/volumes answers task ids at once",
    severity: "must",
    operation: "createVolume",
    needs: NEEDS,
    calls: ["POST /cloud/v1/volumes/{project}/{region} {name, size: 1, source, type_name}"],
  },
  async ({ http, run, created }) => {
    const answer = await http.call({
      method: "POST",
      path: VOLUMES,
      params: where(run),
      body: volumeBody(run, 1),
    });
    story.create = answer;
    expectStatus(answer, 200, 201);
    const tasks = answer.body?.tasks;
    check(
      Array.isArray(tasks) && tasks.length >= 1,
      `the answer has no tasks array: ${answer.text.slice(0, 200)}`,
    );
    check(
      tasks.every((t: unknown) => typeof t === "string" && UUID.test(t)),
      `task ids are not UUID strings: ${JSON.stringify(tasks)}`,
    );
    created({ type: "task", id: tasks[0], ...where(run) });
  },
);

scenario(
  {
    id: "tasks.poll.state-moves-forward",
    title:
      "polled at the recommended interval, the state only moves forward (NEW → RUNNING → FINISHED or ERROR)",
    severity: "must",
    operation: "getTask",
    needs: NEEDS,
    calls: [`GET /cloud/v1/tasks/{task_id} every ${poll} s (× time scale)`],
  },
  async ({ http, run, skip }) => {
    const taskId = story.create?.body?.tasks?.[0];
    if (typeof taskId !== "string") return skip("no task to poll (see tasks.create.answers-tasks)");
    story.polled = await pollTask(http, run, taskId);
    const { states } = story.polled;
    const unknown = states.filter((s) => !(s in RANK));
    check(unknown.length === 0, `states outside NEW, RUNNING, FINISHED, ERROR: ${unknown.join(", ")}`);
    const back = states.findIndex(
      (s, i) => i > 0 && (RANK[s] as number) < (RANK[states[i - 1] as string] as number),
    );
    const terminalChanged = states.findIndex(
      (s, i) => i > 0 && RANK[states[i - 1] as string] === 2 && s !== states[i - 1],
    );
    check(back < 0 && terminalChanged < 0, `the state went ${states.join(" → ")}`);
  },
);

scenario(
  {
    id: "tasks.poll.reaches-finished",
    title: "the volume's task reaches FINISHED within four times its typical duration",
    severity: "must",
    operation: "getTask",
    needs: NEEDS,
    calls: ["(the polls above)"],
  },
  async ({ run, skip, created, cite }) => {
    const polled = story.polled;
    if (!polled) return skip("the task was not polled (see tasks.poll.state-moves-forward)");
    cite(...polled.answers.slice(-2));
    const state = polled.last?.state;
    const seconds = (maxDuration * 4 * run.timeScale).toFixed(1);
    check(state !== "ERROR", `the task ended in ERROR: ${polled.last?.error}`);
    check(
      state === "FINISHED",
      `the task is still ${state} after ${seconds} s (states: ${polled.states.join(" → ")})`,
    );
    const volume = polled.last?.created_resources?.volumes?.[0];
    if (typeof volume === "string")
      created({ type: "volume", id: volume, ...where(run), task_id: polled.taskId });
  },
);

function finishedTask(api: ScenarioApi): Record<string, any> {
  const last = story.polled?.last;
  if (last?.state !== "FINISHED")
    return api.skip("the task did not reach FINISHED (see tasks.poll.reaches-finished)");
  api.cite(story.polled?.answers.at(-1) as Answer);
  return last;
}

scenario(
  {
    id: "tasks.finished.created-id",
    title: "FINISHED holds the new volume's id under created_resources.volumes",
    severity: "must",
    operation: "getTask",
    needs: NEEDS,
    calls: ["(the last poll)"],
  },
  async (api) => {
    const task = finishedTask(api);
    const volumes = task.created_resources?.volumes;
    check(
      Array.isArray(volumes) &&
        volumes.length > 0 &&
        volumes.every((v: unknown) => typeof v === "string" && v !== ""),
      `created_resources.volumes is ${JSON.stringify(volumes)}; expected the new volume's id`,
    );
  },
);

scenario(
  {
    id: "tasks.finished.other-keys-empty",
    title: "FINISHED holds empty arrays under instances, floatingips and networks",
    severity: "must",
    operation: "getTask",
    needs: NEEDS,
    calls: ["(the last poll)"],
  },
  async (api) => {
    const task = finishedTask(api);
    const wrong = ["instances", "floatingips", "networks"].filter(
      (key) => !Array.isArray(task.created_resources?.[key]) || task.created_resources[key].length > 0,
    );
    check(
      wrong.length === 0,
      `not an empty array: ${wrong.map((k) => `${k}=${JSON.stringify(task.created_resources?.[k])}`).join(", ")}`,
    );
  },
);

scenario(
  {
    id: "tasks.finished.finished-on-no-error",
    title: "FINISHED has finished_on and a null error",
    severity: "must",
    operation: "getTask",
    needs: NEEDS,
    calls: ["(the last poll)"],
  },
  async (api) => {
    const task = finishedTask(api);
    check(
      typeof task.finished_on === "string" && task.finished_on !== "",
      `finished_on is ${JSON.stringify(task.finished_on)}`,
    );
    check(task.error === null, `error is ${JSON.stringify(task.error)}; expected null`);
  },
);

scenario(
  {
    id: "schema.createVolume",
    title: "POST /cloud/v1/volumes answers on-spec, a body with a wrongly typed size included",
    severity: "must",
    operation: "createVolume",
    needs: NEEDS,
    calls: ["(the create above)", 'POST /cloud/v1/volumes/{project}/{region} {size: "ten"}'],
  },
  async ({ http, run, validator, skip, cite }) => {
    if (!story.create) return skip("no create was made (see tasks.create.answers-tasks)");
    cite(story.create);
    story.probe = await http.call({
      method: "POST",
      path: VOLUMES,
      params: where(run),
      body: { name: "conformance-probe", size: "ten" },
    });
    checkAgainstSpec(validator, [story.create as Answer, story.probe]);
  },
);

scenario(
  {
    id: "schema.getTask.polled",
    title: "every polled task answer is on-spec",
    severity: "must",
    operation: "getTask",
    needs: NEEDS,
    calls: ["(the polls above)"],
  },
  async ({ validator, skip, cite }) => {
    if (!story.polled) return skip("the task was not polled");
    cite(...story.polled.answers);
    checkAgainstSpec(validator, story.polled.answers);
  },
);

async function limitsNow(http: Http, run: RunContext): Promise<Record<string, number>> {
  const answer = await http.call({
    method: "POST",
    path: CHECK_LIMITS,
    params: where(run),
    body: { flavor: run.discovered.gpuFlavor, servers_count: 1 },
  });
  expectStatus(answer, 200);
  return answer.body;
}

scenario(
  {
    id: "tasks.quota.error-names-quota",
    title: "a volume beyond the volume quota ends as ERROR whose error names the quota and the excess",
    severity: "must",
    operation: "createVolume, getTask",
    needs: [...NEEDS, "gpu-flavor"],
    calls: [
      "POST …/check_limits (limits and usage)",
      "POST /cloud/v1/volumes {size: limit − usage + 7}",
      "GET /cloud/v1/tasks/{id} until ERROR",
    ],
  },
  async ({ http, run, skip, created }) => {
    const before = await limitsNow(http, run);
    const countFull = before.volume_count_usage! >= before.volume_count_limit!;
    const excess = countFull ? before.volume_count_usage! + 1 - before.volume_count_limit! : 7;
    const size = countFull ? 1 : before.volume_size_limit! - before.volume_size_usage! + excess;
    const answer = await http.call({
      method: "POST",
      path: VOLUMES,
      params: where(run),
      body: volumeBody(run, size),
    });
    if (answer.status === 400)
      return skip(
        `the target refused a ${size} GiB volume with 400 before any task, so no quota was reached`,
      );
    expectStatus(answer, 200, 201);
    const taskId = answer.body?.tasks?.[0];
    check(typeof taskId === "string", `the answer has no task id: ${answer.text.slice(0, 200)}`);
    created({ type: "task", id: taskId, ...where(run) });
    const polled = await pollTask(http, run, taskId);
    const quota = countFull ? "volume_count" : "volume_size";
    story.quota = { polled, quota, excess, before };
    const task = polled.last ?? {};
    if (task.state === "FINISHED")
      created({ type: "volume", id: String(task.created_resources?.volumes?.[0]), task_id: taskId });
    check(
      task.state === "ERROR",
      `a ${size} GiB volume (${quota} limit ${before[`${quota}_limit`]}, usage ${before[`${quota}_usage`]}) ended as ${task.state}, not ERROR`,
    );
    const error = String(task.error ?? "");
    const names = new RegExp(quota.replace("_", "[_ ]"), "i").test(error);
    const amount = new RegExp(`(^|[^0-9])${excess}([^0-9]|$)`).test(error);
    check(names && amount, `the error "${error}" should name ${quota} and the excess ${excess}`);
  },
);

scenario(
  {
    id: "tasks.quota.created-resources-null",
    title: "an ERROR task has created_resources null",
    severity: "must",
    operation: "getTask",
    needs: [...NEEDS, "gpu-flavor"],
    calls: ["(the ERROR task above)"],
  },
  async ({ skip, cite }) => {
    const task = story.quota?.polled.last;
    if (story.quota) cite(...story.quota.polled.answers.slice(-1));
    if (task?.state !== "ERROR") return skip("no task ended in ERROR (see tasks.quota.error-names-quota)");
    check(
      task.created_resources === null,
      `created_resources is ${JSON.stringify(task.created_resources)}; expected null`,
    );
  },
);

scenario(
  {
    id: "tasks.quota.nothing-created",
    title: "after an ERROR task the volume usage is what it was before",
    severity: "must",
    operation: "checkVirtualGpuClusterLimits",
    needs: [...NEEDS, "gpu-flavor"],
    calls: ["POST …/check_limits (usage after)"],
  },
  async ({ http, run, skip }) => {
    const quota = story.quota;
    if (quota?.polled.last?.state !== "ERROR")
      return skip("no task ended in ERROR (see tasks.quota.error-names-quota)");
    const after = await limitsNow(http, run);
    const grew = ["volume_count_usage", "volume_size_usage"].filter((f) => after[f]! > quota.before[f]!);
    check(
      grew.length === 0,
      `usage grew after the ERROR task: ${grew.map((f) => `${f} ${quota.before[f]}→${after[f]}`).join(", ")}`,
    );
  },
);
