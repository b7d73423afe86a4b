// The baseline: findings a team has accepted (by result: the rule or check, and the operation), so
// that a scheduled run fails only on new ones. A small JSON file meant to be committed and reviewed:
// `{"findings": [{"id": "schema.listRegions", "check": "schema", "operation": "listRegions"}]}`.

import { accessSync, constants, existsSync, renameSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { readBoundedFile } from "../shared/bounded-file.js";
import { UsageError } from "../shared/usage-error.js";
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

/** A baseline larger than this is refused unread: one entry per accepted result is a few kilobytes. */
export const MAX_BASELINE_BYTES = 8 * 1024 * 1024;

/** The baseline at `file`; a file that is missing (with --baseline-update) is an empty one. */
export function readBaseline(file: string, missingIsEmpty: boolean): Baseline {
  if (missingIsEmpty) checkWritable(file);
  if (missingIsEmpty && !existsSync(file)) return { findings: [] };
  const text = readBoundedFile(file, "--baseline", MAX_BASELINE_BYTES, "a file written by --baseline-update");
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

/**
 * --baseline-update writes the file after the whole run: a folder that is missing or not writable
 * is said before anything is sent, not after.
 */
function checkWritable(file: string): void {
  const folder = dirname(resolve(file));
  try {
    if (!statSync(folder).isDirectory()) throw new Error("not a folder");
    accessSync(folder, constants.W_OK);
  } catch {
    throw new UsageError(
      `--baseline ${file}: --baseline-update cannot write it: its folder ${folder} is missing or not writable; give a file in a folder that exists.`,
    );
  }
  if (existsSync(file) && !statSync(file).isFile())
    throw new UsageError(`--baseline ${file}: is not a regular file; --baseline-update writes a JSON file.`);
}

/** Written whole or not at all: a new file beside it, renamed over it (an interrupted write leaves the old one). */
export function writeBaseline(file: string, findings: Finding[]): void {
  const entries: BaselineEntry[] = findings
    .map((f) => ({ id: f.id, check: f.check, operation: f.operationId, problem: f.problem.split("\n")[0] }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const next = `${file}.${process.pid}.tmp`;
  writeFileSync(next, `${JSON.stringify({ findings: entries }, null, 2)}\n`);
  renameSync(next, file);
}
