// A finding of a fuzz run and the request it names, as report.json keeps them: a leaf of types (the
// report's types name it, and the session that makes findings reads the report's).

import type { Severity } from "./context.js";

export type Phase = "coverage" | "fuzz" | "stateful";

export interface FuzzRequest {
  operationId: string;
  method: string;
  /** The path template ("/cloud/v1/tasks/{task_id}"). */
  path: string;
  /** Path parameter values as sent (strings: a value may be no integer on purpose). */
  params: Record<string, string>;
  /**
   * Path parameters holding the run's own project or region (from discovery): a replay against
   * another target puts that target's there.
   */
  fromRun: string[];
  /** Query pairs in order; a repeated parameter appears once per value. */
  query: [string, string][];
  /** The JSON body, when the operation takes one. */
  body?: unknown;
  /** Which of the run's keys it carries. */
  auth: "client" | "reseller";
  /** A path parameter holding a value no resource has, on purpose (a random UUID): errors.unknown-id-404. */
  unknownParameter?: string;
}

export interface Finding {
  /** The result that failed (`schema.listRegions`, `fuzz.no-server-error.getTask`). */
  id: string;
  /** The rule or check ("schema", "fuzz.no-server-error"). */
  check: string;
  operationId: string;
  severity: Severity;
  phase: Phase;
  seed: number;
  problem: string;
  /** The answer's status (null: none came). */
  status: number | null;
  /** The smallest request found that fails it: what `fuzz --replay` sends again. */
  request: FuzzRequest;
  /** The same as a curl command, the token as "$VARIABLE". */
  curl: string;
  /** Accepted by the --baseline file: reported, not failed. */
  known?: boolean;
  /**
   * Its request sent again before it was reported: how many of the tries failed it. Fewer than all:
   * the result is flaky (a one-off, as the seed calls a 500), not a defect.
   */
  tries?: { failed: number; of: number };
}
