// The Arazzo workflows stay true to the description they drive: they lint clean, call only its
// operations, and poll at the interval it recommends. (They are run against the simulator by the
// conformance package's tests, which can start one.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { listWorkflows } from "../scripts/workflows.mjs";
import { loadBundle, operationsOf } from "./bundle.js";
import { type LintReport, redoclyJson, specDir } from "./redocly.js";

type Json = Record<string, any>;
const files = listWorkflows();
const docs = Object.fromEntries(files.map((f) => [f.name, parse(readFileSync(f.file, "utf8")) as Json]));
const steps = (doc: Json): Json[] => doc.workflows.flatMap((w: Json) => w.steps);

describe("Arazzo workflows", () => {
  it("are the four flows, each file's entry workflow first", () => {
    expect(files.map((f) => f.workflowId).sort()).toEqual([
      "create-volume-and-wait",
      "discover-default-project-and-active-region",
      "walk-ai-tasks",
      "walk-regions",
    ]);
    for (const doc of Object.values(docs)) expect(doc.arazzo).toMatch(/^1\.0\.\d+$/);
  });

  it.each(files.map((f) => f.name))("%s lints clean with redocly lint", (name) => {
    const report = redoclyJson<LintReport>([
      "lint",
      "--config",
      "workflows/redocly.yaml",
      `workflows/${name}`,
    ]);
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("call only operations of the description", () => {
    const ids = new Set([...operationsOf(loadBundle())].map((o) => o.operation.operationId));
    const used = Object.values(docs).flatMap((doc) => steps(doc).flatMap((s) => s.operationId ?? []));
    expect(used.length).toBeGreaterThan(5);
    for (const id of used) expect(ids, id).toContain(id);
  });

  it("poll the volume's task at the interval x-task-polling recommends for create_volume", () => {
    const polling = loadBundle().paths["/cloud/v1/tasks/{task_id}"].get["x-task-polling"];
    const volume = polling.intervals.find((i: Json) => i.taskType === "create_volume");
    const poll = steps(docs["create-volume.arazzo.yaml"]).find((s) => s.stepId === "poll-task") as Json;
    const retry = poll.onFailure.find((a: Json) => a.type === "retry");
    expect(retry.retryAfter).toBe(volume.pollIntervalSeconds);
    // Twelve polls cover four times the longest typical duration (5-15 s) before giving up.
    expect(retry.retryAfter * retry.retryLimit).toBeGreaterThanOrEqual(4 * 15);
    // Polled again only while the task is still going; the terminal states end the loop.
    expect(JSON.stringify(retry.criteria)).toContain("'NEW'");
    expect(JSON.stringify(retry.criteria)).toContain("'RUNNING'");
    expect(JSON.stringify(retry.criteria)).not.toContain("'ERROR'");
    expect([...polling.terminalStates].sort()).toEqual(["ERROR", "FINISHED"]);
  });

  it("never hold a token: the only credential is the password-format input", () => {
    for (const [name, doc] of Object.entries(docs)) {
      const text = readFileSync(join(specDir, "workflows", name), "utf8");
      expect(text, name).not.toMatch(/\d+\$[\w-]{6,}/);
      for (const w of doc.workflows) expect(w.inputs.properties.token?.format, name).toBe("password");
    }
  });
});
