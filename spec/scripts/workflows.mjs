// Runs the Arazzo workflows in ../workflows with Redocly Respect against one API address: the
// proof that a tool we did not write can drive the platform from this description alone. The
// command is the root's `pnpm workflows` (simulator or --base-url); this module is its engine.
//
// Each file's first workflow is its entry point; the others are the steps it calls (respect would
// run them on their own without their inputs, so they are never started directly). The token goes
// to respect as an input of format `password`, which respect masks in everything it prints.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
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

/** Runs a command to its end without blocking: the API under test may live in this process. */
function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeout);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * Runs each workflow file's entry workflow once against `baseUrl`, one file after another.
 * @param {{ baseUrl: string, token: string, inputs?: Record<string, unknown>, only?: string[], timeoutMs?: number, verbose?: boolean, env?: Record<string, string> }} options
 */
export async function runWorkflows({
  baseUrl,
  token,
  inputs = {},
  only,
  timeoutMs = 180_000,
  verbose = false,
  env = {},
}) {
  if (!/^https?:\/\/[^/]+/.test(baseUrl ?? "")) {
    throw new Error(`base URL must be an http(s) address such as http://127.0.0.1:4020 (got "${baseUrl}").`);
  }
  if (!token) throw new Error("No API token: set GCORE_API_KEY (the token, without the word APIKey).");
  const base = baseUrl.replace(/\/+$/, "");
  const selected = listWorkflows().filter(
    (w) => !only?.length || only.includes(w.name) || only.includes(w.workflowId),
  );
  if (only?.length && selected.length === 0) {
    const known = listWorkflows().map((w) => `${w.name} (${w.workflowId})`);
    throw new Error(`No workflow matches ${only.join(", ")}; known: ${known.join(", ")}.`);
  }
  const out = mkdtempSync(join(tmpdir(), "platform-api-respect-"));
  try {
    const results = [];
    for (const workflow of selected) {
      const values = { token, base_url: base, ...inputs };
      const given = Object.fromEntries(workflow.inputs.filter((k) => k in values).map((k) => [k, values[k]]));
      const report = join(out, `${basename(workflow.name, ".arazzo.yaml")}.json`);
      const started = Date.now();
      const respect = await run(
        process.execPath,
        [
          redoclyBin(),
          "respect",
          workflow.file,
          "--workflow",
          workflow.workflowId,
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
        ],
        {
          cwd: workflowsDir,
          env: { ...process.env, ...env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
          timeout: timeoutMs + 10_000,
        },
      );
      let details = { requests: [], failedChecks: [] };
      try {
        const json = JSON.parse(readFileSync(report, "utf8"));
        details = flatten(Object.values(json.files).flatMap((f) => f.executedWorkflows));
      } catch {
        // No report: respect stopped before running (the output says why).
      }
      results.push({
        ...workflow,
        passed: respect.status === 0,
        ms: Date.now() - started,
        ...details,
        output: readable(`${respect.stdout}${respect.stderr}`).replaceAll(token, "********"),
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
