// What the tests of the recipes in examples/github-actions/ share: the JUnit file's name as the
// CLI's report writer gives it, and the checks GitHub's workflow schema does not make.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Report } from "../src/report.js";
import { writeReports } from "../src/report-files.js";

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
