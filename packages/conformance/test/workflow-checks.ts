// What the tests of the recipes in examples/github-actions/ share: the JUnit file's name as the
// CLI's report writer gives it, the checks GitHub's workflow schema does not make, the step's
// script run with a stub npx, and the guide that shows the recipe.

import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { DEFAULTS } from "../src/cli/options.js";
import { writeReports } from "../src/report/files.js";
import type { Report } from "../src/shared/results.js";

/** The JUnit file's name, as the CLI's report writer names it (an empty report written to `dir`). */
export function junitFileName(dir: string): string {
  const report: Report = {
    target: "none",
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
    options: {},
    summary: { passed: 0, failed: 0, warned: 0, skipped: 0 },
    scenarios: [],
    createdResources: [],
  };
  writeReports(report, dir, (text) => text);
  const junit = readdirSync(dir).filter((f) => readFileSync(join(dir, f), "utf8").includes("<testsuites"));
  if (junit.length !== 1) throw new Error(`the report writer wrote ${junit.length} JUnit files, not one`);
  return junit[0]!;
}

/** Every string in a parsed YAML value (arrays' items at their index), with its path. */
export function walk(value: unknown, path: string[], visit: (text: string, path: string[]) => void): void {
  if (typeof value === "string") visit(value, path);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) walk(v, [...path, k], visit);
}

/** Why a five-field cron expression (as GitHub's schedule takes it) is invalid, or undefined. */
export function cronProblem(cron: string): string | undefined {
  const fields = cron.trim().split(/\s+/);
  if (fields.length !== 5) return `"${cron}" has ${fields.length} fields, not five fields`;
  const ranges: [string, number, number][] = [
    ["minute", 0, 59],
    ["hour", 0, 23],
    ["day of month", 1, 31],
    ["month", 1, 12],
    ["day of week", 0, 6],
  ];
  for (const [i, field] of fields.entries()) {
    const [name, min, max] = ranges[i]!;
    for (const part of field.split(",")) {
      const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
      if (!m) return `${name} "${part}" is not a number, range, step or *`;
      const numbers = [m[2], m[3]].filter((n) => n !== undefined).map(Number);
      if (numbers.some((n) => n < min || n > max)) return `${name} "${part}" is outside ${min}-${max}`;
      if (m[4] !== undefined && Number(m[4]) < 1) return `${name} "${part}" has a step of 0`;
    }
  }
  return undefined;
}

/** The recipe with one change at `path` (a value, or undefined to delete the key), as YAML text. */
export function mutatedYaml(source: string, path: (string | number)[], value?: unknown): string {
  const doc = parseDocument(source);
  if (value === undefined) doc.deleteIn(path);
  else doc.setIn(path, value);
  return doc.toString();
}

/** What the recipe's step did with a stub npx: its exit code, npx's arguments, whether the token reached it. */
export interface StepRun {
  code: number | null;
  args: string[];
  output: string;
  tokenSeen: boolean;
}

/**
 * The recipe's step script, run by bash as GitHub runs it (`-eo pipefail`) with a stub npx that
 * records its arguments and whether the token variable reached it. The step's env is as GitHub
 * would give it: the client token's secret holds `token`, any other secret is missing (empty), and
 * `input` renders as given to `run`. Removed with its scratch folder after the file's tests.
 */
export function stepRunner(
  step: { run?: string; env?: Record<string, string>; shell?: string },
  options: { token: string; input: string; scratchPrefix: string },
): (inputValue: string, exitCode?: number) => StepRun {
  const scratch = mkdtempSync(join(tmpdir(), options.scratchPrefix));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const stubDir = join(scratch, "bin");
  const argsFile = join(scratch, "args");
  const scriptFile = join(scratch, "step.sh");
  writeFileSync(scriptFile, step.run ?? "");
  mkdirSync(stubDir);
  writeFileSync(
    join(stubDir, "npx"),
    [
      "#!/bin/sh",
      `printf '%s\\n' "$@" > "${argsFile}"`,
      `[ -n "$${DEFAULTS.apiKeyEnv}" ] && echo token-seen >> "${argsFile}.env"`,
      'exit "$STUB_EXIT"',
      "",
    ].join("\n"),
  );
  chmodSync(join(stubDir, "npx"), 0o755);
  const stepEnv = (inputValue: string) => {
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(step.env ?? {})) {
      const match = /^\$\{\{ (secrets|inputs)\.([\w-]+) \}\}$/.exec(value);
      if (!match) throw new Error(`${name}: an expression this test does not evaluate: ${value}`);
      const [, context, key] = match;
      if (context === "secrets") env[name] = key === DEFAULTS.apiKeyEnv ? options.token : "";
      else env[name] = key === options.input ? inputValue : "";
    }
    return env;
  };
  return (inputValue, exitCode = 0) => {
    expect(step.shell).toBe("bash");
    rmSync(argsFile, { force: true });
    rmSync(`${argsFile}.env`, { force: true });
    const result = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", scriptFile], {
      env: {
        PATH: `${stubDir}:${process.env.PATH ?? ""}`,
        STUB_EXIT: String(exitCode),
        ...stepEnv(inputValue),
      },
      encoding: "utf8",
      timeout: 10_000,
    });
    const output = `${result.stdout}${result.stderr}`;
    if (!existsSync(argsFile))
      throw new Error(`the step's script never ran npx (exit ${result.status}): ${output}`);
    const args = readFileSync(argsFile, "utf8").split("\n").slice(0, -1);
    let tokenSeen = false;
    try {
      tokenSeen = readFileSync(`${argsFile}.env`, "utf8").includes("token-seen");
    } catch {}
    return { code: result.status, args, output, tokenSeen };
  };
}

/** The guide's tests: it shows the recipe byte for byte, and is the guide the recipe names. */
export function describeGuide(name: string, guideFile: string, source: string): void {
  describe(name, () => {
    const guide = readFileSync(guideFile, "utf8");

    it("shows the workflow byte for byte (one source: a copy that drifts fails here)", () => {
      const blocks = [...guide.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
      expect(blocks).toEqual([source]);
    });

    it("is the guide the workflow names", () => {
      const title = /^# (.+)$/m.exec(guide)?.[1];
      expect(title).toBeTruthy();
      expect(source).toContain(`"${title}"`);
    });
  });
}
