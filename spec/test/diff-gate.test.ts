// The breaking-change gate (`pnpm spec:diff`, scripts/diff.mjs) on copies of the released
// description with changes. It must stop every change that breaks a client unless info.version says
// so, and let changes that break nobody through. Each gate runs redocly two or three times (its
// JSON verdict, its Markdown report, and but for a major change the next version), a Node process
// of a second each: that is the whole cost. So the three breaking changes share one gate, which rates each change on its own
// row, and only the gates whose exit code and printed lines are under test run as CI runs them (a
// process of their own); the others call runGate, which the script's command line only prints.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runGate } from "../scripts/diff.mjs";
import { arrayAt, at, isObject, type Json, objectAt } from "./bundle.js";
import { specDir } from "./redocly.js";

const released = join(specDir, "released/openapi.json");
const script = join(specDir, "scripts/diff.mjs");
const work = mkdtempSync(join(tmpdir(), "spec-diff-gate-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
// Three redocly runs of a second each, bounded for a loaded machine.
const GATE_TIMEOUT_MS = 180_000;

/** The paths the changes below touch: the profile's (the schema a response field leaves) and two lists. */
const PROFILE = "/security/iaas/v2/profiles/{id}";
const AI_TASKS = "/streaming/ai/tasks";
const REGIONS = "/cloud/v1/regions";
const CHANGED_PATHS = [PROFILE, AI_TASKS, REGIONS];

/**
 * The released description with `change` made, written to a file of its own: cut to the paths the
 * changes touch, every component kept (each `$ref` still resolves). A path no change touches adds
 * no row, while redocly reads and compares the whole of both files on each of its seven runs here
 * (measured: this file 6.6 CPU-s cut, 7.0-7.8 whole). CI's spec:diff step gates the whole
 * description (.ci/run).
 */
function revision(name: string, change: (spec: Json) => void = () => {}): string {
  const spec = JSON.parse(readFileSync(released, "utf8")) as Json;
  const paths = objectAt(spec, "paths");
  const missing = CHANGED_PATHS.filter((path) => !(path in paths));
  if (missing.length) throw new Error(`The released description has no ${missing.join(", ")}`);
  for (const path of Object.keys(paths)) if (!CHANGED_PATHS.includes(path)) delete paths[path];
  change(spec);
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify(spec, null, 2));
  return file;
}
/** The base every gate compares with: the released description, cut as the revisions are. */
const base = revision("base");

/** The script as CI runs it: its exit code, stdout and stderr. */
function cli(base: string, revisionFile: string) {
  return new Promise<{ status: number | null; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      [script, "--base", base, "--revision", revisionFile],
      { encoding: "utf8", timeout: GATE_TIMEOUT_MS },
      (error, stdout, stderr) =>
        resolve({
          status: error ? (typeof error.code === "number" ? error.code : null) : 0,
          out: stdout,
          err: stderr,
        }),
    );
  });
}

const removeRequiredResponseField = (spec: Json) => {
  const profile = objectAt(spec, "components", "schemas", "ProtectionProfile");
  delete objectAt(profile, "properties").plan;
  profile.required = arrayAt(profile, "required").filter((name) => name !== "plan");
};
const narrowRequestEnum = (spec: Json) => {
  const param = arrayAt(spec, "paths", AI_TASKS, "get", "parameters").find(
    (p) => isObject(p) && p.name === "task_name",
  );
  // The parameter's enum is the shared AiTaskName schema; narrow it there.
  expect(at(param, "schema", "$ref")).toBe("#/components/schemas/AiTaskName");
  objectAt(spec, "components", "schemas", "AiTaskName").enum = ["transcription"];
};
const addRequiredParameter = (spec: Json) => {
  arrayAt(spec, "paths", REGIONS, "get", "parameters").push({
    name: "zone",
    in: "query",
    required: true,
    description: "Geographic zone.",
    schema: { type: "string" },
  });
};

/** The Markdown report's row of the change a rule found (empty when there is none). */
const rowOf = (markdown: string, ruleId: string) =>
  markdown.split("\n").find((line) => line.startsWith("|") && line.includes(`\`${ruleId}\``)) ?? "";

describe.concurrent("spec diff gate", () => {
  it(
    "fails on each breaking change, rating each major on its own row, and says how to fix it",
    async () => {
      const file = revision("breaking", (spec) => {
        removeRequiredResponseField(spec);
        narrowRequestEnum(spec);
        addRequiredParameter(spec);
      });
      const run = await cli(base, file);
      expect(run.status).toBe(1);
      expect(run.err).toContain("Spec diff gate FAILED");
      expect(run.out).toContain("info.version stayed 1.0.0, but these changes require a major bump (2.0.0)");
      expect(run.out).toContain("bump info.version in spec/openapi.yaml to the next major");
      // Each change on its own: a gate that rated one of them below major would still fail for
      // the others, but not show it major here.
      const removed = rowOf(run.out, "property-removed");
      expect(removed, "a removed required response field").toMatch(/^\| 🔴 major \|/);
      expect(removed, "a removed required response field").toMatch(/security~1iaas~1v2~1profiles/);
      const narrowed = rowOf(run.out, "enum-values-removed");
      expect(narrowed, "an enum narrowed in a request").toMatch(/^\| 🔴 major \|/);
      expect(narrowed, "an enum narrowed in a request").toContain("content-moderation");
      const required = rowOf(run.out, "parameter-became-required");
      expect(required, "a new required parameter").toMatch(/^\| 🔴 major \|/);
      expect(required, "a new required parameter").toMatch(/Required \\?`zone\\?` query parameter was added/);
    },
    GATE_TIMEOUT_MS,
  );

  it(
    "lets an added optional response field through without a version bump",
    () => {
      const result = runGate({
        base,
        revision: revision("added-optional-field", (spec) => {
          objectAt(spec, "components", "schemas", "Region", "properties").flavor_count = {
            type: "integer",
            description: "Number of flavors offered in the region.",
          };
        }),
      });
      expect(result.status).toBe(0);
      expect(result.markdown).toContain("flavor_count");
      expect(result.messages.join("\n")).toContain("1 minor and 0 patch change(s), none breaking");
      expect(result.messages.join("\n")).toContain("the next release of the description is 1.1.0");
    },
    GATE_TIMEOUT_MS,
  );

  it(
    "lets a breaking change through once info.version has the major bump",
    () => {
      const result = runGate({
        base,
        revision: revision("removed-field-major-bump", (spec) => {
          removeRequiredResponseField(spec);
          objectAt(spec, "info").version = "2.0.0";
        }),
      });
      expect(result.status).toBe(0);
      expect(result.markdown).toContain("property-removed");
    },
    GATE_TIMEOUT_MS,
  );

  // A process of its own for the exit code that says "could not run" (no redocly runs).
  it("says what is missing when there is no released description", async () => {
    const run = await cli(join(work, "absent.json"), released);
    expect(run.status).toBe(2);
    expect(run.out).toContain("No released description at");
    expect(run.out).toContain("pnpm spec:release");
  }, 60_000);
});
