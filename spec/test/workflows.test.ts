// The Arazzo workflows stay true to the description they drive: they lint clean, call only its
// operations, and poll at the interval it recommends. (They are run against the simulator by the
// conformance package's tests, which can start one.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { operationById, pollingAdviceFor, taskPollingOf } from "../lib/index.js";
import { listWorkflows } from "../scripts/workflows.mjs";
import { loadModel } from "./bundle.js";
import { type LintReport, redoclyJsonEach, specDir } from "./redocly.js";

/** The parts of an Arazzo document these tests read. */
interface Arazzo {
  arazzo: string;
  workflows: {
    workflowId: string;
    inputs: { properties: Record<string, { format?: string } | undefined> };
    steps: Step[];
  }[];
}
interface Step {
  stepId: string;
  operationId?: string;
  successCriteria?: unknown[];
  onFailure?: { type: string; retryAfter?: number; retryLimit?: number; criteria?: unknown[] }[];
}

const model = loadModel();
const files = listWorkflows();
const docs = new Map(files.map((f) => [f.name, parse(readFileSync(f.file, "utf8")) as Arazzo]));
const steps = (doc: Arazzo): Step[] => doc.workflows.flatMap((w) => w.steps);
let linted: LintReport[] | undefined;
/** redocly lint of every workflow file in one run: a report per file, in the order given. */
const lintReports = (): LintReport[] =>
  (linted ??= redoclyJsonEach<LintReport>([
    "lint",
    "--config",
    "workflows/redocly.yaml",
    ...files.map((f) => `workflows/${f.name}`),
  ]));
function step(file: string, stepId: string): Step {
  const doc = docs.get(file);
  const found = doc && steps(doc).find((s) => s.stepId === stepId);
  if (!found) throw new Error(`${file} has no step ${stepId}`);
  return found;
}

describe("Arazzo workflows", () => {
  it("are the four flows, each file's entry workflow first", () => {
    expect(files.map((f) => f.workflowId).sort()).toEqual([
      "create-volume-and-wait",
      "discover-default-project-and-active-region",
      "walk-ai-tasks",
      "walk-regions",
    ]);
    for (const doc of docs.values()) expect(doc.arazzo).toMatch(/^1\.0\.\d+$/);
  });

  it.each(files.map((f) => f.name))("%s lints clean with redocly lint", (name) => {
    const reports = lintReports();
    expect(reports).toHaveLength(files.length);
    const report = reports[files.findIndex((f) => f.name === name)] as LintReport;
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("call only operations of the description", () => {
    const ids = new Set(model.operations.map((o) => o.operationId));
    const used = [...docs.values()].flatMap((doc) => steps(doc).flatMap((s) => s.operationId ?? []));
    expect(used.length).toBeGreaterThan(5);
    for (const id of used) expect(ids, id).toContain(id);
  });

  it("poll the volume's task with the operation and at the interval x-task-polling gives", () => {
    const create = step("create-volume.arazzo.yaml", "create-volume");
    const poll = step("create-volume.arazzo.yaml", "poll-task");
    const asyncTask = operationById(model, create.operationId ?? "").asyncTask;
    if (!asyncTask) throw new Error(`${create.operationId} has no x-async-task`);
    expect(poll.operationId).toBe(asyncTask.pollOperationId);
    const advice = pollingAdviceFor(model, asyncTask.taskType);
    if (!advice.known) throw new Error(advice.reason);
    const retry = poll.onFailure?.find((a) => a.type === "retry");
    expect(retry?.retryAfter).toBe(advice.interval.pollIntervalSeconds);
    // The polls cover four times the longest typical duration before giving up.
    expect((retry?.retryAfter ?? 0) * (retry?.retryLimit ?? 0)).toBeGreaterThanOrEqual(
      4 * advice.interval.typicalDurationSeconds.max,
    );
    // Polled again only while the task is still going; the terminal states end the loop.
    const { states, terminalStates } = taskPollingOf(model);
    const going = states.filter((state) => !terminalStates.includes(state));
    expect(going.length).toBeGreaterThan(0);
    const criteria = JSON.stringify(retry?.criteria);
    for (const state of going) expect(criteria).toContain(`'${state}'`);
    for (const state of terminalStates) expect(criteria).not.toContain(`'${state}'`);
    // What the task created is read where the Task schema keeps it for this operation.
    expect(JSON.stringify(poll.successCriteria)).toContain(
      `created_resources.${asyncTask.createdResourcesKey}`,
    );
  });

  it("never hold a token: the only credential is the password-format input", () => {
    for (const [name, doc] of docs) {
      const text = readFileSync(join(specDir, "workflows", name), "utf8");
      expect(text, name).not.toMatch(/\d+\$[\w-]{6,}/);
      for (const w of doc.workflows) expect(w.inputs.properties.token?.format, name).toBe("password");
    }
  });
});
