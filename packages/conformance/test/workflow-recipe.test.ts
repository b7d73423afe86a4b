import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateWorkflow } from "@action-validator/core";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseArgs } from "../src/cli/cli-options.js";
import { DEFAULTS } from "../src/cli/options.js";
import {
  cronProblem,
  describeGuide,
  junitFileName,
  mutatedYaml,
  stepRunner,
  walk,
} from "./workflow-checks.js";

const WORKFLOW_FILE = fileURLToPath(
  new URL("../examples/github-actions/live-conformance.yml", import.meta.url),
);
const GUIDE_FILE = fileURLToPath(new URL("../../docs/guides/conformance-ci.md", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
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
  "runs-on": string;
  "timeout-minutes"?: number;
  "continue-on-error"?: unknown;
  permissions?: unknown;
  steps: Step[];
}
interface Workflow {
  name: string;
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
const job = jobs[0]!;
const steps = job.steps;
const suiteSteps = steps.filter((s) => s.run?.includes(`${pkg.name}@`));
const suiteStep = suiteSteps[0]!;
const after = steps.slice(steps.indexOf(suiteStep) + 1);
const usesStep = (action: string) => steps.find((s) => s.uses?.startsWith(`${action}@`));

/** A GitHub expression as a workflow writes it: `${{ <inside> }}`. */
const expression = (inside: string) => `$\{{ ${inside} }}`;

/** Errors of the schema validator, as one string to match against. */
const schemaErrors = (text: string) => JSON.stringify(validateWorkflow(text).errors);

/** The example with one change at `path` (a value, or undefined to delete the key). */
const mutated = (path: (string | number)[], value?: unknown) => mutatedYaml(source, path, value);

// The stub npx and its runs. The token is a made-up one, with the `$` real tokens have.
const TOKEN = "4242$recipe-test-token-never-printed";
const scratch = mkdtempSync(join(tmpdir(), "workflow-recipe-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const runStep = stepRunner(suiteStep, {
  token: TOKEN,
  input: "allow-writes",
  scratchPrefix: "workflow-recipe-step-",
});

/** The JUnit file's name, as the CLI's report writer names it. */
const JUNIT_FILE = junitFileName(join(scratch, "report"));

describe("the recipe is a valid GitHub workflow", () => {
  it("passes the workflow schema with no error", () => {
    expect(validateWorkflow(source).errors).toEqual([]);
  });

  // The validator has teeth: each of these copies breaks the schema in one place.
  it.each([
    ["an unknown key under the job", ["jobs", "conformance", "timeout-minuets"], 30, "timeout-minuets"],
    ["a job without runs-on", ["jobs", "conformance", "runs-on"], undefined, "/jobs/conformance/runs-on"],
    ["a permission level that does not exist", ["permissions", "contents"], "readonly", "/permissions"],
    [
      "a dispatch input of no known type",
      ["on", "workflow_dispatch", "inputs", "allow-writes", "type"],
      "bool",
      "/on",
    ],
    [
      "a step that neither runs nor uses",
      ["jobs", "conformance", "steps", steps.indexOf(suiteStep), "run"],
      undefined,
      "/steps",
    ],
  ])("rejects a copy with %s", (_, path, value, where) => {
    const copy = mutated(path, value);
    expect(copy).not.toBe(source);
    const errors = schemaErrors(copy);
    expect(errors).not.toBe("[]");
    expect(errors).toContain(where);
  });

  it("runs on a schedule with a valid cron, and by hand; on nothing a pull request could start", () => {
    expect(Object.keys(workflow.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    const crons = workflow.on.schedule?.map((s) => s.cron) ?? [];
    expect(crons.length).toBeGreaterThan(0);
    for (const cron of crons) expect(cronProblem(cron), cron).toBeUndefined();
    // The schema does not read cron expressions; this check does (and has teeth too).
    expect(cronProblem("17 25 * * *")).toMatch(/hour/);
    expect(cronProblem("17 4 * *")).toMatch(/five fields/);
  });

  it("pins every action to a major version at least", () => {
    const used = steps.flatMap((s) => (s.uses ? [s.uses] : []));
    expect(used.length).toBeGreaterThan(0);
    for (const uses of used) expect(uses).toMatch(/^[\w.-]+\/[\w./-]+@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/);
  });
});

describe("what the recipe does", () => {
  it("gives the job's token no more than read access to the repository", () => {
    expect(workflow.permissions).toEqual({ contents: "read" });
    for (const j of jobs) expect(j.permissions).toBeUndefined();
  });

  it("never runs twice at once, never cancels a run under way, and has a time limit", () => {
    expect(workflow.concurrency.group).toBeTruthy();
    expect(workflow.concurrency["cancel-in-progress"]).toBe(false);
    expect(jobs).toHaveLength(1);
    expect(job["timeout-minutes"]).toBeGreaterThan(0);
    expect(job["timeout-minutes"]).toBeLessThan(360); // GitHub's default, 6 hours
  });

  it("sets up a Node the package supports", () => {
    const setup = usesStep("actions/setup-node");
    const wanted = Number(setup?.with?.["node-version"]);
    // The lowest major the range admits, e.g. 20 of "^20.19.0 || >=22.12.0".
    const least = Number(/(\d+)\./.exec(pkg.engines.node)?.[1]);
    expect(least).toBeGreaterThanOrEqual(20);
    expect(wanted).toBeGreaterThanOrEqual(least);
  });

  it("runs the published CLI, pinned to the package's major version", () => {
    expect(suiteSteps).toHaveLength(1);
    const major = pkg.version.split(".")[0];
    expect(suiteStep.run).toContain(`npx -y ${pkg.name}@${major} `);
    // npx runs a package's only bin.
    expect(Object.keys(pkg.bin)).toHaveLength(1);
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

  it("maps the secrets to the variables the CLI reads the tokens from", () => {
    const options = parseArgs(cliArgs(runSuite("true").args));
    expect(suiteStep.env?.[options.apiKeyEnv]).toBe(expression(`secrets.${DEFAULTS.apiKeyEnv}`));
    expect(suiteStep.env?.[options.resellerApiKeyEnv]).toBe(
      expression(`secrets.${DEFAULTS.resellerApiKeyEnv}`),
    );
  });

  // The step's script, run as GitHub runs a `shell: bash` step, with a stub for npx that records
  // what it was given: the CLI's own parser reads its flags.
  it.each([
    { when: "a scheduled run (no inputs)", input: "", writes: false },
    { when: "a run by hand, box not ticked", input: "false", writes: false },
    { when: "a run by hand, box ticked", input: "true", writes: true },
  ])("$when: --allow-writes $writes", ({ input, writes }) => {
    const run = runSuite(input);
    expect(run.code).toBe(0);
    const options = parseArgs(cliArgs(run.args));
    expect(options.target).toBe("https://api.gcore.com");
    expect(options.allowWrites).toBe(writes);
    expect(options.allowBurst).toBe(false);
    expect(run.tokenSeen).toBe(true);
    expect(run.args.join(" ") + run.output).not.toContain(TOKEN);
  });

  it("allows writes only from the dispatch input, which defaults to off", () => {
    const inputs = workflow.on.workflow_dispatch?.inputs ?? {};
    expect(Object.keys(inputs)).toEqual(["allow-writes"]);
    expect(inputs["allow-writes"]).toMatchObject({ type: "boolean", default: false });
    const fromInputs = Object.entries(suiteStep.env ?? {}).filter(([, v]) => v.includes("inputs."));
    expect(fromInputs).toEqual([["ALLOW_WRITES", expression("inputs.allow-writes")]]);
  });

  it.each([1, 2])("fails the step when the suite exits %i", (code) => {
    expect(runSuite("", code).code).toBe(code);
    expect(suiteStep["continue-on-error"]).toBeUndefined();
    expect(job["continue-on-error"]).toBeUndefined();
  });

  it("keeps the reports whatever the verdict, from where the CLI writes them", () => {
    const dir = parseArgs(cliArgs(runSuite("").args)).report;
    expect(after.length).toBeGreaterThanOrEqual(2);
    for (const step of after) expect(step.if, step.name).toBe("always()");

    const junit = usesStep("mikepenz/action-junit-report");
    expect(junit?.with).toMatchObject({ report_paths: `${dir}/${JUNIT_FILE}`, annotate_only: true });

    const artifact = usesStep("actions/upload-artifact");
    expect(String(artifact?.with?.path).replace(/\/$/, "")).toBe(dir);
    const retention = Number(artifact?.with?.["retention-days"]);
    expect(retention).toBeGreaterThanOrEqual(1);
    expect(retention).toBeLessThanOrEqual(90);
  });
});

describeGuide("the guide", GUIDE_FILE, source);

function runSuite(allowWrites: string, exitCode = 0) {
  return runStep(allowWrites, exitCode);
}

/** What npx passes on to the CLI: its arguments after `-y <package>@<version>`. */
function cliArgs(args: string[]): string[] {
  expect(args[0]).toBe("-y");
  expect(args[1]).toMatch(new RegExp(`^${pkg.name.replace(/[/.]/g, "\\$&")}@`));
  return args.slice(2);
}
