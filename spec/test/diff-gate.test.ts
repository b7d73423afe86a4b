// The breaking-change gate (`pnpm spec:diff`, scripts/diff.mjs) run as CI runs it, on copies of
// the released description with one change each. It must stop every change that breaks a client
// unless info.version says so, and let changes that break nobody through. Each gate runs redocly
// three times (its JSON verdict, its Markdown report, the next version), a Node process of a second
// each: that is the whole cost, so the gates run side by side.
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { arrayAt, at, isObject, type Json, objectAt } from "./bundle.js";
import { specDir } from "./redocly.js";

const released = join(specDir, "released/openapi.json");
const work = mkdtempSync(join(tmpdir(), "spec-diff-gate-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The gate as CI runs it, on the released description with one change; the tests run side by side. */
function gate(name: string, change: (spec: Json) => void) {
  const spec = JSON.parse(readFileSync(released, "utf8")) as Json;
  change(spec);
  const revision = join(work, `${name}.json`);
  writeFileSync(revision, JSON.stringify(spec, null, 2));
  return new Promise<{ status: number | null; out: string; err: string }>((resolve) => {
    execFile(
      process.execPath,
      [join(specDir, "scripts/diff.mjs"), "--base", released, "--revision", revision],
      { encoding: "utf8", timeout: 120_000 },
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

describe.concurrent("spec diff gate", () => {
  it("fails on a removed required response field and says how to fix it", async () => {
    const run = await gate("removed-required-field", removeRequiredResponseField);
    expect(run.status).toBe(1);
    expect(run.out).toContain("property-removed");
    expect(run.out).toMatch(/GET|security~1iaas~1v2~1profiles/);
    expect(run.out).toContain("info.version stayed 1.0.0, but these changes require a major bump (2.0.0)");
    expect(run.out).toContain("bump info.version in spec/openapi.yaml to the next major");
    expect(run.err).toContain("Spec diff gate FAILED");
  });

  it("fails on an enum narrowed in a request (a query parameter loses a value)", async () => {
    const run = await gate("narrowed-request-enum", (spec) => {
      const param = arrayAt(spec, "paths", "/streaming/ai/tasks", "get", "parameters").find(
        (p) => isObject(p) && p.name === "task_name",
      );
      // The parameter's enum is the shared AiTaskName schema; narrow it there.
      expect(at(param, "schema", "$ref")).toBe("#/components/schemas/AiTaskName");
      objectAt(spec, "components", "schemas", "AiTaskName").enum = ["transcription"];
    });
    expect(run.status).toBe(1);
    expect(run.out).toContain("enum-values-removed");
    expect(run.out).toContain("content-moderation");
  });

  it("fails on a new required parameter", async () => {
    const run = await gate("new-required-parameter", (spec) => {
      arrayAt(spec, "paths", "/cloud/v1/regions", "get", "parameters").push({
        name: "zone",
        in: "query",
        required: true,
        description: "Geographic zone.",
        schema: { type: "string" },
      });
    });
    expect(run.status).toBe(1);
    expect(run.out).toContain("parameter-became-required");
    expect(run.out).toMatch(/Required \\?`zone\\?` query parameter was added/);
  });

  it("lets an added optional response field through without a version bump", async () => {
    const run = await gate("added-optional-field", (spec) => {
      objectAt(spec, "components", "schemas", "Region", "properties").flavor_count = {
        type: "integer",
        description: "Number of flavors offered in the region.",
      };
    });
    expect(run.err).not.toContain("FAILED");
    expect(run.status).toBe(0);
    expect(run.out).toContain("flavor_count");
    expect(run.out).toContain("1 minor and 0 patch change(s), none breaking");
    expect(run.out).toContain("the next release of the description is 1.1.0");
  });

  it("lets a breaking change through once info.version has the major bump", async () => {
    const run = await gate("removed-field-major-bump", (spec) => {
      removeRequiredResponseField(spec);
      objectAt(spec, "info").version = "2.0.0";
    });
    expect(run.status).toBe(0);
    expect(run.out).toContain("property-removed");
  });

  it("says what is missing when there is no released description", async () => {
    const run = spawnSync(
      process.execPath,
      [join(specDir, "scripts/diff.mjs"), "--base", join(work, "absent.json"), "--revision", released],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stdout).toContain("No released description at");
    expect(run.stdout).toContain("pnpm spec:release");
  });
});
