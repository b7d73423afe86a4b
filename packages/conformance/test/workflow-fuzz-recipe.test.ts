import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { validateWorkflow } from "@action-validator/core";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createFuzzCommand, toFuzzOptions } from "../src/cli/fuzz-options.js";
import { DEFAULTS } from "../src/cli/options.js";
import { requestsPerSecond } from "../src/facts/rate.js";
import type { FuzzOptions } from "../src/fuzz/options.js";
import {
  cronProblem,
  describeGuide,
  junitFileName,
  mutatedYaml,
  stepRunner,
  walk,
} from "./workflow-checks.js";

const WORKFLOW_FILE = fileURLToPath(new URL("../examples/github-actions/live-fuzz.yml", import.meta.url));
const GUIDE_FILE = fileURLToPath(new URL("../../docs/guides/conformance-fuzz.md", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
  files: string[];
  engines: { node: string };
};

const source = readFileSync(WORKFLOW_FILE, "utf8");

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
  "continue-on-error"?: unknown;
}
interface Job {
  "timeout-minutes"?: number;
  "continue-on-error"?: unknown;
  permissions?: unknown;
  steps: Step[];
}
interface Workflow {
  on: {
    schedule?: { cron: string }[];
    workflow_dispatch?: { inputs?: Record<string, { type: string; default?: unknown }> };
    [event: string]: unknown;
  };
  permissions: unknown;
  concurrency: { group: string; "cancel-in-progress": boolean };
  jobs: Record<string, Job>;
}

const workflow = parse(source) as Workflow;
const jobs = Object.values(workflow.jobs);
const jobName = Object.keys(workflow.jobs)[0]!;
const job = jobs[0]!;
const steps = job.steps;
const fuzzSteps = steps.filter((s) => s.run?.includes(`${pkg.name}@`));
const fuzzStep = fuzzSteps[0]!;
const before = steps.slice(0, steps.indexOf(fuzzStep));
const after = steps.slice(steps.indexOf(fuzzStep) + 1);
const usesStep = (action: string) => steps.find((s) => s.uses?.startsWith(`${action}@`));

/** A GitHub expression as a workflow writes it: `${{ <inside> }}`. */
const expression = (inside: string) => `$\{{ ${inside} }}`;

/** The example with one change at `path` (a value, or undefined to delete the key). */
const mutated = (path: (string | number)[], value?: unknown) => mutatedYaml(source, path, value);

// The stub npx and its runs. The token is a made-up one, with the `$` real tokens have.
const TOKEN = "4242$fuzz-recipe-token-never-printed";
const scratch = mkdtempSync(join(tmpdir(), "workflow-fuzz-recipe-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const runStep = stepRunner(fuzzStep, {
  token: TOKEN,
  input: "update-baseline",
  scratchPrefix: "workflow-fuzz-recipe-step-",
});

const JUNIT_FILE = junitFileName(join(scratch, "report"));

describe("the fuzz recipe is a valid GitHub workflow", () => {
  it("passes the workflow schema with no error", () => {
    expect(validateWorkflow(source).errors).toEqual([]);
  });

  // The validator has teeth on this file too: each copy breaks the schema in one place.
  it.each([
    ["an unknown key under the job", ["jobs", jobName, "timeout-minuets"], 30, "timeout-minuets"],
    ["a permission level that does not exist", ["permissions", "contents"], "readonly", "/permissions"],
    [
      "a dispatch input of no known type",
      ["on", "workflow_dispatch", "inputs", "update-baseline", "type"],
      "bool",
      "/on",
    ],
  ])("rejects a copy with %s", (_, path, value, where) => {
    const copy = mutated(path, value);
    expect(copy).not.toBe(source);
    const errors = JSON.stringify(validateWorkflow(copy).errors);
    expect(errors).not.toBe("[]");
    expect(errors).toContain(where);
  });

  it("runs on a schedule with a valid cron, and by hand; on nothing a pull request could start", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    const crons = workflow.on.schedule?.map((s) => s.cron) ?? [];
    expect(crons.length).toBeGreaterThan(0);
    for (const cron of crons) expect(cronProblem(cron), cron).toBeUndefined();
  });

  it("pins every action to a major version at least", () => {
    const used = steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(used.length).toBeGreaterThan(0);
    for (const uses of used) expect(uses).toMatch(/^[\w.-]+\/[\w./-]+@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/);
  });

  it("ships in the npm package, beside the conformance recipe", () => {
    const packageDir = fileURLToPath(new URL("..", import.meta.url));
    expect(pkg.files).toContain(relative(packageDir, WORKFLOW_FILE).split(sep)[0]);
  });
});

describe("what the fuzz recipe does", () => {
  it("gives the job's token no more than read access, and keeps it out of the checkout", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    for (const j of jobs) expect(j.permissions).toBeUndefined();
    // The baseline comes from the repository; nothing later needs git credentials.
    const checkout = usesStep("actions/checkout");
    expect(before).toContain(checkout);
    expect(checkout?.with?.["persist-credentials"]).toBe(false);
  });

  it("never runs twice at once, never cancels a run under way, and has a time limit", () => {
    expect(workflow.concurrency.group).toBeTruthy();
    expect(workflow.concurrency["cancel-in-progress"]).toBe(false);
    expect(jobs).toHaveLength(1);
    expect(job["timeout-minutes"]).toBeGreaterThan(0);
    expect(job["timeout-minutes"]).toBeLessThan(360); // GitHub's default, 6 hours
  });

  it("sets up a Node the package supports", () => {
    const wanted = Number(usesStep("actions/setup-node")?.with?.["node-version"]);
    const least = Number(/(\d+)\./.exec(pkg.engines.node)?.[1]);
    expect(least).toBeGreaterThanOrEqual(20);
    expect(wanted).toBeGreaterThanOrEqual(least);
  });

  it("runs the published CLI's fuzz command, pinned to the package's major version", () => {
    expect(fuzzSteps).toHaveLength(1);
    expect(fuzzStep.run).toContain(`npx -y ${pkg.name}@${pkg.version.split(".")[0]} fuzz `);
  });

  it("passes secrets only through a step's env, each whole, and puts no expression in a script", () => {
    const places: string[] = [];
    walk(workflow, [], (value, path) => {
      if (!/\$\{\{[^}]*\bsecrets\./.test(value)) return;
      places.push(path.join("."));
      expect(path.at(-2), path.join(".")).toBe("env");
      expect(value).toMatch(/^\$\{\{ secrets\.[A-Z0-9_]+ \}\}$/);
    });
    expect(places.length).toBeGreaterThan(0);
    for (const step of steps) if (step.run) expect(step.run).not.toContain("${{");
  });

  it("maps the secrets to the variables fuzz reads the tokens from", () => {
    const options = runFuzz("").options;
    expect(fuzzStep.env?.[options.apiKeyEnv]).toBe(expression(`secrets.${DEFAULTS.apiKeyEnv}`));
    expect(fuzzStep.env?.[options.resellerApiKeyEnv]).toBe(
      expression(`secrets.${DEFAULTS.resellerApiKeyEnv}`),
    );
  });

  // The step's script, run as GitHub runs a `shell: bash` step, with a stub for npx that records
  // what it was given: fuzz's own parser reads its flags.
  it.each([
    { when: "a scheduled run (no inputs)", input: "", update: false },
    { when: "a run by hand, box not ticked", input: "false", update: false },
    { when: "a run by hand, box ticked", input: "true", update: true },
  ])("$when: read-only, paced below the default, --baseline-update $update", ({ input, update }) => {
    const run = runFuzz(input);
    expect(run.code).toBe(0);
    expect(run.options.target).toBe("https://api.gcore.com");
    expect(run.options.allowWrites).toBe(false);
    expect(run.options.replay).toBeUndefined();
    expect(run.options.rateLimit).toBeLessThan(DEFAULTS.rateLimit);
    expect(run.options.rateLimit).toBeLessThanOrEqual(requestsPerSecond());
    // The same requests every run: a red run means the platform changed, not the seed.
    expect(run.options.seed).toBeTypeOf("number");
    expect(run.options.baseline).toBeTruthy();
    expect(run.options.baselineUpdate).toBe(update);
    expect(run.tokenSeen).toBe(true);
    expect(run.args.join(" ") + run.output).not.toContain(TOKEN);
  });

  it("writes the baseline only from the dispatch input, which defaults to off", () => {
    const inputs = workflow.on.workflow_dispatch?.inputs ?? {};
    expect(Object.keys(inputs)).toEqual(["update-baseline"]);
    expect(inputs["update-baseline"]).toMatchObject({ type: "boolean", default: false });
    const fromInputs = Object.entries(fuzzStep.env ?? {}).filter(([, v]) => v.includes("inputs."));
    expect(fromInputs).toEqual([["UPDATE_BASELINE", expression("inputs.update-baseline")]]);
  });

  it.each([1, 2])("fails the step when fuzz exits %i", (code) => {
    expect(runFuzz("", code).code).toBe(code);
    expect(fuzzStep["continue-on-error"]).toBeUndefined();
    expect(job["continue-on-error"]).toBeUndefined();
  });

  it("keeps the reports and the baseline whatever the verdict, from where the CLI reads and writes them", () => {
    const { report, baseline } = runFuzz("true").options;
    expect(after.length).toBeGreaterThanOrEqual(2);
    for (const step of after) expect(step.if, step.name).toBe("always()");

    const junit = usesStep("mikepenz/action-junit-report");
    expect(junit?.with).toMatchObject({ report_paths: `${report}/${JUNIT_FILE}`, annotate_only: true });

    const artifact = usesStep("actions/upload-artifact");
    const paths = String(artifact?.with?.path)
      .split("\n")
      .map((p) => p.trim().replace(/\/$/, ""))
      .filter(Boolean);
    expect(paths.sort()).toEqual([baseline, report].sort());
    // upload-artifact leaves out hidden files and folders unless told otherwise: a baseline under
    // .github/ would never reach the artifact.
    for (const path of paths) expect(path.split("/").some((part) => part.startsWith("."))).toBe(false);
    const retention = Number(artifact?.with?.["retention-days"]);
    expect(retention).toBeGreaterThanOrEqual(1);
    expect(retention).toBeLessThanOrEqual(90);
  });
});

describeGuide("the fuzz guide", GUIDE_FILE, source);

function runFuzz(updateBaseline: string, exitCode = 0) {
  const run = runStep(updateBaseline, exitCode);
  return { ...run, options: fuzzOptions(run.args) };
}

/** What npx passes on to the CLI (after `-y <package>@<version>`), read by fuzz's own parser. */
function fuzzOptions(args: string[]): FuzzOptions {
  expect(args[0]).toBe("-y");
  expect(args[1]).toMatch(new RegExp(`^${pkg.name.replace(/[/.]/g, "\\$&")}@`));
  expect(args[2]).toBe("fuzz");
  const command = createFuzzCommand().exitOverride();
  command.parse(args.slice(3), { from: "user" });
  return toFuzzOptions(command.opts());
}
