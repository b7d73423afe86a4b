// Every option of `conformance fuzz` with its default: the main run's target options, and what
// generation adds (the README's table follows it).

import type { ConformanceOptions } from "../shared/conformance-options.js";
import type { Phase } from "../shared/finding.js";
import { UsageError } from "../shared/usage-error.js";
import { PHASES } from "./request.js";

export interface FuzzOptions extends ConformanceOptions {
  /** Same seed, same requests in the same order (against the same answers). Default: a random one, printed. */
  seed?: number;
  /** Generated requests per operation in the fuzz phase (shrinking a failure sends more, bounded). */
  maxExamples: number;
  phases: Phase[];
  /** Known findings (by result: rule and operation): reported, not failed. */
  baseline?: string;
  /** Write this run's findings to the --baseline file. */
  baselineUpdate: boolean;
  /** A report.json whose findings are sent again. */
  replay?: string;
}

export const FUZZ_DEFAULTS = {
  /** Keeps a default run against the embedded simulator well under 30 s (the README's figure). */
  maxExamples: 25,
  phases: [...PHASES] as Phase[],
  /** What --max-examples takes at most: every operation × 1000 is already hours against a live API. */
  maxMaxExamples: 1000,
} as const;

export function checkFuzzOptions(options: FuzzOptions): void {
  if (
    !(
      Number.isSafeInteger(options.maxExamples) &&
      options.maxExamples >= 1 &&
      options.maxExamples <= FUZZ_DEFAULTS.maxMaxExamples
    )
  )
    throw new UsageError(
      `--max-examples needs a whole number from 1 to ${FUZZ_DEFAULTS.maxMaxExamples} (got ${options.maxExamples}).`,
    );
  if (
    options.seed !== undefined &&
    !(Number.isSafeInteger(options.seed) && Math.abs(options.seed) <= 2 ** 31 - 1)
  )
    throw new UsageError(
      `--seed needs a whole number from ${-(2 ** 31 - 1)} to ${2 ** 31 - 1} (got ${options.seed}).`,
    );
  const unknown = options.phases.filter((p) => !PHASES.includes(p));
  if (unknown.length > 0 || options.phases.length === 0)
    throw new UsageError(
      `--phases ${unknown.length > 0 ? `"${unknown.join(",")}" is` : "is empty, which is"} not allowed: give one or more of ${PHASES.join(", ")}, comma-separated.`,
    );
  if (options.baselineUpdate && options.baseline === undefined)
    throw new UsageError("--baseline-update needs --baseline FILE: the file it writes.");
  if (options.replay !== undefined && options.baselineUpdate)
    throw new UsageError(
      "--replay sends a report's findings again; it finds nothing new to write with --baseline-update.",
    );
}
