// The Arazzo workflows of spec/workflows, run by Redocly Respect (a tool we did not write) against
// the simulator: they pass on the platform as documented, and each fails on a platform that
// breaks the rule it depends on.
import { fileURLToPath } from "node:url";
import { DEFAULT_TOKENS, type Simulator } from "@platform-api/simulator";
import { matchOperation, operationById } from "@platform-api/spec";
import { listWorkflows, runWorkflows, type WorkflowResult } from "@platform-api/spec/workflows";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { specModel } from "../src/facts/spec.js";
import { pollingFor, taskFacts } from "../src/facts/tasks.js";
import { fieldOf, isRecord } from "../src/shared/json.js";
import {
  type Defect,
  type Exchange,
  type FaultyTarget,
  startFaultyTarget,
  together,
} from "./faulty-target.js";
import { tokenPrefix } from "./token-prefix.js";

const token = DEFAULT_TOKENS.client;

/**
 * The workflows against one faulty target, in one respect process (one start, the costly part of
 * a run): each result is still its own workflow's, read from respect's report and its part of the
 * output.
 */
async function runAgainst(
  defect: Defect,
  workflows: string[],
  options: { inputs?: Record<string, unknown>; verbose?: boolean } = {},
): Promise<Record<string, WorkflowResult>> {
  const target = await startFaultyTarget(defect);
  try {
    const results = await runWorkflows({
      baseUrl: target.url,
      token,
      only: workflows,
      env: fakeWaits,
      oneProcess: true,
      ...options,
    });
    return Object.fromEntries(results.map((r) => [r.workflowId, r]));
  } finally {
    await target.close();
  }
}

/** The result of `workflowId` among `results`, which must hold it. */
function resultOf(results: Record<string, WorkflowResult>, workflowId: string): WorkflowResult {
  const found = results[workflowId];
  if (!found) throw new Error(`${workflowId} did not run`);
  return found;
}

// The spec's polling advice for a volume's task: poll every `poll` s; it takes up to `maxDuration` s.
const model = specModel();
const createVolume = operationById(model, "createVolume");
const volumeTask = createVolume.asyncTask;
if (!volumeTask) throw new Error("createVolume has no x-async-task in the spec.");
const advice = pollingFor(volumeTask.taskType);
if (typeof advice === "string") throw new Error(advice);
const poll = advice.pollIntervalSeconds;
const maxDuration = advice.typicalDurationSeconds.max;
const tasks = taskFacts(volumeTask);
const unfinished = tasks.states.filter((s) => s !== tasks.finished && !tasks.failed.includes(s));
const operationOf = (exchange: Exchange) =>
  matchOperation(model, exchange.method, exchange.path)?.operation.operationId;

/**
 * Respect waits between polls in real time (the workflow's retryAfter, the spec's interval): its
 * process is given a fake clock (respect-fake-waits.mjs) that ends a wait of exactly `poll` s at
 * once and says so in respect's output. Given to respect's process alone (runWorkflows' env).
 */
const FAKE_WAITS = fileURLToPath(new URL("./respect-fake-waits.mjs", import.meta.url));
const FAKE_WAIT_LINE = `[fake wait] ${poll * 1000} ms`;
const fakeWaits = {
  NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${FAKE_WAITS}`].filter(Boolean).join(" "),
  RESPECT_FAKE_WAITS_MS: String(poll * 1000),
};

/**
 * A task that finishes once it has been polled: the simulator runs tasks in real time (a volume
 * takes 5-15 s, so the first poll, right after the create, finds it unfinished however slow the
 * machine), and after answering a poll that found it unfinished, its clock jumps by the longest
 * typical duration, so the next poll, after respect's wait, finds it FINISHED. No race with a timer.
 */
const finishesOncePolled: Defect = {
  name: "none: a task finishes once it has been polled",
  fails: [],
  simulator: { timeScale: 1 },
  response(exchange, answer, sim) {
    const state = fieldOf(answer.body, "state");
    if (operationOf(exchange) === tasks.poll.operationId && unfinished.includes(String(state)))
      sim.advance(maxDuration);
  },
};

// The two groups run side by side. The four passing workflows share one respect process: a
// respect run is a second of CPU, most of it its start, and none waits in real time.
describe.concurrent("Arazzo workflows against the simulator", () => {
  let target: FaultyTarget;
  let sim: Simulator;
  let results: Record<string, WorkflowResult>;

  beforeAll(async () => {
    target = await startFaultyTarget(finishesOncePolled);
    sim = target.sim;
    const all = await runWorkflows({ baseUrl: target.url, token, env: fakeWaits, oneProcess: true });
    results = Object.fromEntries(all.map((r) => [r.workflowId, r]));
  });
  afterAll(() => target?.close());
  const result = (workflowId: string) => resultOf(results, workflowId);

  it("runs every workflow file, and every one passes", () => {
    expect(Object.keys(results).sort()).toEqual([
      "create-volume-and-wait",
      "discover-default-project-and-active-region",
      "walk-ai-tasks",
      "walk-regions",
    ]);
    for (const result of Object.values(results)) expect(result.passed, result.output).toBe(true);
  });

  it("discovery takes the default project and the first ACTIVE region", () => {
    const paths = result("discover-default-project-and-active-region").requests.map(
      (r) => new URL(r.url).pathname,
    );
    // Project 1 is the default; region 76 is the first ACTIVE one in the simulator's list.
    expect(paths).toEqual(["/cloud/v1/projects", "/cloud/v1/regions", "/cloud/v1/instances/1/76"]);
  });

  it("creates one volume and polls its task until FINISHED, not before", () => {
    const run = result("create-volume-and-wait");
    const polls = run.requests.filter((r) => r.stepId === "poll-task");
    expect(polls.map((r) => r.status)).toEqual([200, 200]);
    // Between the two polls, one wait of the spec's interval, on respect's fake clock.
    expect(run.output.split("\n").filter((line) => line.trim() === FAKE_WAIT_LINE)).toHaveLength(1);
    const created = sim.store.world.volumes.filter((v) => v.name === "arazzo-volume");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ project_id: 1, region_id: 76, size: 10 });
  });

  it("walks the regions a page at a time until offset reaches count", () => {
    const urls = result("walk-regions").requests.map((r) => new URL(r.url));
    // The page size is the workflow's own; several pages, so the walk is not vacuous.
    const limit = Number(urls[0]?.searchParams.get("limit"));
    const count = sim.store.world.regions.length;
    expect(limit).toBeLessThan(count);
    expect(urls.map((u) => u.searchParams.get("limit"))).toEqual(urls.map(() => String(limit)));
    expect(urls.map((u) => u.searchParams.get("offset"))).toEqual(
      Array.from({ length: Math.ceil(count / limit) }, (_, i) => String(i * limit)),
    );
  });

  it("walks the AI tasks by next until next is null", async () => {
    const answer = await fetch(`${sim.url}/streaming/ai/tasks?limit=1`, {
      headers: { Authorization: `${tokenPrefix}${token}` },
    });
    const { count } = (await answer.json()) as { count: number };
    const urls = result("walk-ai-tasks").requests.map((r) => new URL(r.url));
    const limit = Number(urls[0]?.searchParams.get("limit"));
    expect(limit).toBeLessThan(count);
    expect(urls.map((u) => u.searchParams.get("page"))).toEqual([
      null,
      ...Array.from({ length: Math.ceil(count / limit) - 1 }, (_, i) => String(i + 2)),
    ]);
  });
});

/**
 * A platform that breaks no default project, a regions page's limit and the AI tasks' next, and
 * ends a volume's task as soon as it is created. The projects list breaks only once a volume has
 * been asked for: create-volume runs its own discovery first, and respect runs the files in the
 * order given, create-volume's first (listWorkflows sorts them), so its discovery meets a default
 * project and its create goes on to the task. Were the order ever different, the discovery test
 * would find a default project and the create-volume test a failed discovery: both fail.
 */
function noDefaultProjectOnceAVolumeIsAsked(): Defect {
  let volumeAsked = false;
  return {
    name: "no default project once a volume has been asked for",
    fails: [],
    request(exchange) {
      if (operationOf(exchange) === createVolume.operationId) volumeAsked = true;
      return undefined;
    },
    response(exchange, answer) {
      const projects = fieldOf(answer.body, "results");
      if (volumeAsked && operationOf(exchange) === "listProjects" && Array.isArray(projects))
        for (const p of projects) if (isRecord(p)) p.is_default = false;
    },
  };
}
const limitIgnored: Defect = {
  name: "limit ignored",
  fails: [],
  request(exchange) {
    if (exchange.path === "/cloud/v1/regions") exchange.query.delete("limit");
    return undefined;
  },
};
const nextLeadsBack: Defect = {
  name: "next points at page 1",
  fails: [],
  response(exchange, answer) {
    const body = answer.body;
    if (operationOf(exchange) !== "listAiTasks" || !isRecord(body)) return;
    if (body.next) body.next = "page=1&limit=10";
    if (exchange.query.get("page") === "1") body.previous = null;
  },
};
/**
 * A volume beyond the client's volume_size quota (the run's size input) ends its task in ERROR
 * (the seed's rule), and the clock jumps past its duration as the create is answered, so the first
 * poll finds it.
 */
const endsAtOnce: Defect = {
  name: "a task ends as soon as it is created",
  fails: [],
  response(exchange, _answer, sim) {
    if (operationOf(exchange) === createVolume.operationId) sim.advance(maxDuration);
  },
};

describe.concurrent("Arazzo workflows fail where the platform breaks their rule", () => {
  // The four defects touch different operations, and each of the four workflows meets only its
  // own before its check fails (the discovery stops at the projects, before any region; the
  // create-volume workflow's discovery comes before any volume is asked for): one target plants
  // all four and one respect process runs the four workflows, each failing on its own defect, told
  // apart by its failed check and its requests. Verbose: the output shows every request's
  // headers, and respect's account of the failed check, as a failing run prints them.
  let broken: Promise<Record<string, WorkflowResult>> | undefined;
  const brokenRun = async (workflowId: string) => {
    broken ??= runAgainst(
      together([noDefaultProjectOnceAVolumeIsAsked(), limitIgnored, nextLeadsBack, endsAtOnce]),
      listWorkflows().map((w) => w.workflowId),
      { inputs: { size: 1_000_000 }, verbose: true },
    );
    return resultOf(await broken, workflowId);
  };

  it("runs create-volume's file first, as the projects defect needs", () => {
    expect(listWorkflows()[0]?.workflowId).toBe("create-volume-and-wait");
  });

  it("discovery fails when no project is the default", async () => {
    const result = await brokenRun("discover-default-project-and-active-region");
    expect(result.passed).toBe(false);
    expect(result.failedChecks.join("\n")).toContain("is_default == true");
    expect(result.requests.map((r) => new URL(r.url).pathname)).toEqual(["/cloud/v1/projects"]);
  });

  it("create-volume stops at once, failed, when the task ends in ERROR", async () => {
    const result = await brokenRun("create-volume-and-wait");
    expect(result.passed).toBe(false);
    expect(result.failedChecks.join("\n")).toContain("state == 'FINISHED'");
    // NEW and RUNNING are polled again (the passing run above polls twice); ERROR is not.
    expect(result.requests.filter((r) => r.stepId === "poll-task")).toHaveLength(1);
  });

  it("the regions walk fails when a page ignores limit", async () => {
    const result = await brokenRun("walk-regions");
    expect(result.passed).toBe(false);
    expect(result.failedChecks.join("\n")).toContain("length(@.results) == 2");
  });

  it("the AI tasks walk fails when next leads back to the first page", async () => {
    const result = await brokenRun("walk-ai-tasks");
    expect(result.passed).toBe(false);
    expect(result.failedChecks.join("\n")).toContain("previous != null");
  });

  it("never prints the token, not even verbose, in a failed run's output", async () => {
    const result = await brokenRun("walk-regions");
    expect(result.passed).toBe(false);
    expect(result.output.toLowerCase()).toContain(
      `authorization: ${tokenPrefix.toLowerCase()}${"*".repeat(8)}`,
    );
    expect(result.output).not.toContain(token);
    expect(result.output).not.toContain(token.split("$")[1]);
  });
});
