// Runs the Arazzo workflows in ../workflows with Redocly Respect against one API address: the
// proof that a tool we did not write can drive the platform from this description alone. The
// command is the root's `pnpm workflows` (simulator or --base-url); this module is its engine.
//
// Each file's first workflow is its entry point; the others are the steps it calls (respect would
// run them on their own without their inputs, so they are never started directly). The token goes
// to respect as an input of format `password`, which respect masks in everything it prints.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { redoclyBin } from "./redocly-bin.mjs";

const specDir = fileURLToPath(new URL("..", import.meta.url));
export const workflowsDir = join(specDir, "workflows");

/** Every workflow file with its entry workflow and the inputs that entry declares. */
export function listWorkflows() {
  return readdirSync(workflowsDir)
    .filter((name) => name.endsWith(".arazzo.yaml"))
    .sort()
    .map((name) => {
      const file = join(workflowsDir, name);
      const [entry] = parse(readFileSync(file, "utf8")).workflows;
      return {
        file,
        name,
        workflowId: entry.workflowId,
        inputs: Object.keys(entry.inputs?.properties ?? {}),
      };
    });
}

/** respect's output without colour codes and without the Node.js 20 notice box. */
function readable(text) {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC.
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .filter((line) => !/[╔║╚]/.test(line) && line.trim() !== "")
      .join("\n")
  );
}

/** Requests and failed checks of a respect JSON report, child workflows included. */
function flatten(steps, into = { requests: [], failedChecks: [] }) {
  for (const step of steps ?? []) {
    if (step.type === "workflow") {
      flatten(step.executedSteps, into);
      continue;
    }
    if (step.request) {
      into.requests.push({
        stepId: step.stepId,
        method: step.request.method.toUpperCase(),
        url: step.request.url,
        status: step.response?.statusCode,
      });
    }
    for (const check of step.checks ?? []) {
      if (!check.passed && check.severity === "error") {
        into.failedChecks.push(
          `${step.stepId}: ${check.name}${check.condition ? ` (${check.condition})` : ""}`,
        );
      }
    }
  }
  return into;
}

/**
 * Runs a command to its end without blocking: the API under test may live in this process. With
 * `oneStream`, stdout and stderr share one file, so their lines keep the order they were written
 * in (`stdout` holds both).
 */
function run(command, args, options, oneStream) {
  return new Promise((resolve) => {
    const fd = oneStream ? openSync(oneStream, "w") : undefined;
    const child = spawn(command, args, { ...options, stdio: ["ignore", fd ?? "pipe", fd ?? "pipe"] });
    if (fd !== undefined) closeSync(fd);
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeout);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout: fd === undefined ? stdout : readFileSync(oneStream, "utf8"), stderr });
    });
  });
}

/** respect's arguments for the entry workflows of `workflows`, each given the inputs it declares. */
function respectArgs(workflows, { base, values, report, timeoutMs, verbose }) {
  const declared = new Set(workflows.flatMap((w) => w.inputs));
  const given = Object.fromEntries([...declared].filter((k) => k in values).map((k) => [k, values[k]]));
  return [
    redoclyBin(),
    "respect",
    ...workflows.map((w) => w.file),
    ...workflows.flatMap((w) => ["--workflow", w.workflowId]),
    "--server",
    `platform=${base}`,
    "--input",
    JSON.stringify(given),
    "--json-output",
    report,
    "--max-fetch-timeout",
    "30000",
    "--execution-timeout",
    String(timeoutMs),
    ...(verbose ? ["--verbose"] : []),
  ];
}

/** Each file's part of a JSON report of respect's: its requests, failed checks, status and time. */
function fileReports(report) {
  try {
    const json = JSON.parse(readFileSync(report, "utf8"));
    return new Map(
      Object.entries(json.files).map(([name, f]) => [
        basename(name),
        {
          ...flatten(f.executedWorkflows),
          succeeded:
            f.executedWorkflows.length > 0 && f.executedWorkflows.every((w) => w.status === "success"),
          ms: f.totalTimeMs,
        },
      ]),
    );
  } catch {
    // No report: respect stopped before running (the output says why).
    return new Map();
  }
}

/**
 * One respect run's readable output cut into each file's part, in the order the files ran: a part
 * ends with the file's summary (its "Time:" line). Without its summary a file gets the whole output.
 */
function outputOfEach(text, names) {
  // Every file but one lacks some of the workflows named: respect says so at each file's start.
  const lines = text.split("\n").filter((line) => !line.startsWith("Following workflows don't exist:"));
  const parts = new Map();
  let start = 0;
  for (const name of names) {
    const summary = lines.findIndex((line, i) => i >= start && line.trim() === `Summary for ${name}`);
    const end = lines.findIndex((line, i) => i > summary && /^\s*Time: /.test(line));
    if (summary < 0 || end < 0) break;
    parts.set(name, lines.slice(start, end + 1).join("\n"));
    start = end + 1;
  }
  return (name) => parts.get(name) ?? lines.join("\n");
}

/**
 * Runs each workflow file's entry workflow once against `baseUrl`: one file after another, each in
 * a respect process of its own, or all in one respect process (`oneProcess`: one start instead of
 * one a file; each file's result is still its own, from respect's report and its part of the
 * output).
 * @param {{ baseUrl: string, token: string, inputs?: Record<string, unknown>, only?: string[], timeoutMs?: number, verbose?: boolean, env?: Record<string, string>, oneProcess?: boolean }} options
 */
export async function runWorkflows({
  baseUrl,
  token,
  inputs = {},
  only,
  timeoutMs = 180_000,
  verbose = false,
  env = {},
  oneProcess = false,
}) {
  if (!/^https?:\/\/[^/]+/.test(baseUrl ?? "")) {
    throw new Error(`base URL must be an http(s) address such as http://127.0.0.1:4020 (got "${baseUrl}").`);
  }
  if (!token) {
    // Loaded only here: the model's import is most of this module's cost, and only this message needs it.
    const { loadModel, tokenScheme } = await import("../lib/index.js");
    const word = tokenScheme(loadModel(), "APIKey").tokenPrefix.trim();
    throw new Error(`No API token: set GCORE_API_KEY (the token, without the word ${word}).`);
  }
  const base = baseUrl.replace(/\/+$/, "");
  const selected = listWorkflows().filter(
    (w) => !only?.length || only.includes(w.name) || only.includes(w.workflowId),
  );
  if (only?.length && selected.length === 0) {
    const known = listWorkflows().map((w) => `${w.name} (${w.workflowId})`);
    throw new Error(`No workflow matches ${only.join(", ")}; known: ${known.join(", ")}.`);
  }
  const out = mkdtempSync(join(tmpdir(), "platform-api-respect-"));
  const options = {
    cwd: workflowsDir,
    env: { ...process.env, ...env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    timeout: timeoutMs + 10_000,
  };
  const respect = (workflows, report, oneStream) =>
    run(
      process.execPath,
      respectArgs(workflows, {
        base,
        values: { token, base_url: base, ...inputs },
        report,
        timeoutMs,
        verbose,
      }),
      options,
      oneStream,
    );
  const masked = (text) => readable(text).replaceAll(token, "********");
  try {
    if (oneProcess) {
      const report = join(out, "all.json");
      const { stdout } = await respect(selected, report, join(out, "output.txt"));
      const files = fileReports(report);
      const outputOf = outputOfEach(
        masked(stdout),
        selected.map((w) => w.name),
      );
      return selected.map((workflow) => {
        const file = files.get(workflow.name);
        return {
          ...workflow,
          passed: file?.succeeded ?? false,
          ms: file?.ms ?? 0,
          requests: file?.requests ?? [],
          failedChecks: file?.failedChecks ?? [],
          output: outputOf(workflow.name),
        };
      });
    }
    const results = [];
    for (const workflow of selected) {
      const report = join(out, `${basename(workflow.name, ".arazzo.yaml")}.json`);
      const started = Date.now();
      const { status, stdout, stderr } = await respect([workflow], report);
      const [file] = fileReports(report).values();
      results.push({
        ...workflow,
        passed: status === 0,
        ms: Date.now() - started,
        requests: file?.requests ?? [],
        failedChecks: file?.failedChecks ?? [],
        output: masked(`${stdout}${stderr}`),
      });
    }
    return results;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** One line per workflow, then the total; failed workflows also print respect's own output. */
export function printResults(results, log = console.log) {
  for (const r of results) {
    const mark = r.passed ? "✓" : "✗";
    log(`${mark} ${r.name} (${r.workflowId}): ${r.requests.length} requests, ${(r.ms / 1000).toFixed(1)} s`);
    if (!r.passed) {
      for (const check of r.failedChecks) log(`    failed: ${check}`);
      log(r.output.trim().replace(/^/gm, "    | "));
    }
  }
  const failed = results.filter((r) => !r.passed).length;
  log(`Arazzo workflows: ${results.length - failed} passed, ${failed} failed (redocly respect)`);
}
