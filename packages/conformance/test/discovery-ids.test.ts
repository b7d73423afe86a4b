// --project-id and --region-id are checked alike against the target before any scenario: an id the
// target does not list is the user's to fix (exit 2, naming the list), not the target's failure.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { runConformance } from "../src/active/run.js";
import { DEFAULTS } from "../src/cli/options.js";
import { prepareRun } from "../src/discovery/prepare.js";
import { specModel } from "../src/facts/spec.js";

const model = specModel();
const PROJECTS = operationById(model, "listProjects").path;
const REGIONS = operationById(model, "listRegions").path;
const report = mkdtempSync(join(tmpdir(), "discovery-ids-"));
const options = { ...DEFAULTS, only: [] as string[], target: "simulator", report };
const quiet = { write: () => {}, notice: () => {}, env: {} };

describe("an id the target does not list", () => {
  it.each([
    ["--project-id", { projectId: 999_999 }, PROJECTS],
    ["--region-id", { regionId: 999_999 }, REGIONS],
  ])(
    "%s 999999: exit 2, naming the list",
    async (flag, given, list) => {
      const lines: string[] = [];
      const result = await runConformance(
        { ...options, ...given },
        { ...quiet, write: (l) => lines.push(l) },
      );
      expect(result.exitCode).toBe(2);
      expect(lines.join("\n")).toContain(`${flag} 999999 is not in GET ${list}`);
    },
    120_000,
  );

  it("one the target lists is used, its discovery step skipped", async () => {
    const found = await prepareRun(options, {}, () => {});
    const projectId = found.context.discovered.projectId;
    await found.close();
    expect(projectId).toBeTypeOf("number");
    const given = await prepareRun({ ...options, projectId }, {}, () => {});
    try {
      expect(given.context.discovered.projectId).toBe(projectId);
      const step = given.context.discovery.steps.find((s) => s.id === "discovery.default-project");
      expect(step?.status).toBe("skipped");
    } finally {
      await given.close();
    }
  }, 120_000);
});
