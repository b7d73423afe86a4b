// The registry: every check of the suite, and which operations of the spec each applies to. The
// scenario files run them (scenarios/15-checks.scenario.ts: every check but the schema ones;
// scenarios/95-schema.scenario.ts: the schema ones, after everything else).

import type { OperationModel } from "@platform-api/spec";
import { specModel } from "../spec.js";
import { authMissingHeader } from "./auth-missing-header.js";
import { errorsUnknownId404 } from "./errors-unknown-id-404.js";
import { offsetCountIsTotal } from "./offset-count-is-total.js";
import { offsetCountStable } from "./offset-count-stable.js";
import { offsetDefaultLimit } from "./offset-default-limit.js";
import { offsetLimitBounds } from "./offset-limit-bounds.js";
import { offsetPageWithinLimit } from "./offset-page-within-limit.js";
import { offsetWalkVisitsEachOnce } from "./offset-walk-visits-each-once.js";
import { pageCountIsTotal } from "./page-count-is-total.js";
import { pageDefaultLimit } from "./page-default-limit.js";
import { pageLastPageNextNull } from "./page-last-page-next-null.js";
import { pageNextPreviousNeighbours } from "./page-next-previous-neighbours.js";
import { pagePageWithinLimit } from "./page-page-within-limit.js";
import { schema, schemaInferred } from "./schema.js";
import { type Check, resultId } from "./types.js";

export type { Check } from "./types.js";
export { resultId } from "./types.js";

/** Checks that call the target, in the order they run. */
export const CALLING_CHECKS: readonly Check[] = [
  authMissingHeader,
  offsetCountIsTotal,
  offsetCountStable,
  offsetPageWithinLimit,
  offsetWalkVisitsEachOnce,
  offsetLimitBounds,
  offsetDefaultLimit,
  pageCountIsTotal,
  pageNextPreviousNeighbours,
  pageLastPageNextNull,
  pagePageWithinLimit,
  pageDefaultLimit,
  errorsUnknownId404,
];

/** Checks that judge every answer of the run: they run last. */
export const SCHEMA_CHECKS: readonly Check[] = [schema, schemaInferred];

export const CHECKS: readonly Check[] = [...CALLING_CHECKS, ...SCHEMA_CHECKS];

export interface PlannedCheck {
  check: Check;
  operation: OperationModel;
  id: string;
}

/** Every (check, operation) pair of the spec, check by check, operations in the spec's order. */
export function planChecks(checks: readonly Check[]): PlannedCheck[] {
  return checks.flatMap((check) =>
    specModel()
      .operations.filter((operation) => check.applies(operation))
      .map((operation) => ({ check, operation, id: resultId(check, operation) })),
  );
}
