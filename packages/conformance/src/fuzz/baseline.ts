// The baseline: findings a team has accepted (by result: the rule or check, and the operation), so
// that a scheduled run fails only on new ones. A small JSON file meant to be committed and reviewed:
// `{"findings": [{"id": "schema.listRegions", "check": "schema", "operation": "listRegions"}]}`.

import { readFileSync, writeFileSync } from "node:fs";
import { UsageError } from "../options.js";
import type { Finding } from "./session.js";

export interface BaselineEntry {
  id: string;
  check: string;
  operation: string;
  /** What it was when accepted (for the reviewer; not matched). */
  problem?: string;
}

export interface Baseline {
  findings: BaselineEntry[];
}

const isEntry = (value: unknown): value is BaselineEntry =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as BaselineEntry).id === "string" &&
  typeof (value as BaselineEntry).check === "string" &&
  typeof (value as BaselineEntry).operation === "string";

/** The baseline at `file`; a file that is missing (with --baseline-update) is an empty one. */
export function readBaseline(file: string, missingIsEmpty: boolean): Baseline {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && missingIsEmpty) return { findings: [] };
    throw new UsageError(`--baseline ${file}: cannot read it (${(error as Error).message}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--baseline ${file} is not JSON: give a file written by --baseline-update.`);
  }
  const findings = (parsed as Baseline | null)?.findings;
  if (!Array.isArray(findings))
    throw new UsageError(
      `--baseline ${file} has no "findings" array: give a file written by --baseline-update.`,
    );
  const bad = findings.findIndex((f) => !isEntry(f));
  if (bad >= 0)
    throw new UsageError(
      `--baseline ${file}: findings[${bad}] is not an entry; allowed: an object with "id", "check" and "operation" strings.`,
    );
  return { findings };
}

export function writeBaseline(file: string, findings: Finding[]): void {
  const entries: BaselineEntry[] = findings
    .map((f) => ({ id: f.id, check: f.check, operation: f.operationId, problem: f.problem.split("\n")[0] }))
    .sort((a, b) => a.id.localeCompare(b.id));
  writeFileSync(file, `${JSON.stringify({ findings: entries }, null, 2)}\n`);
}
