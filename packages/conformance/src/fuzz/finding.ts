// A finding of a fuzz run, as report.json keeps it: a leaf of types (the report's types name it,
// and the session that makes findings reads the report's).

import type { Severity } from "../shared/context.js";
import type { FuzzRequest, Phase } from "./request.js";

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
