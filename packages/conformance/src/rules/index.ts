// The suite's one registry of rules, in report order. Every exchange is judged by every rule that
// applies to its operation, whoever made it: an active run's drivers and stories, the traffic
// `observe` saw, a HAR file (src/judge/judge.ts). A new rule is one file here and one line below.

import { authMissingHeader } from "./auth-missing-header.js";
import { authResellerClientTokenForbidden } from "./auth-reseller-forbidden.js";
import { errorsUnknownId404 } from "./errors-unknown-id-404.js";
import { offsetFilters, pageFilters } from "./list-filters.js";
import { offsetOrdering, pageOrdering } from "./list-ordering.js";
import { offsetCountIsTotal } from "./offset-count-is-total.js";
import { offsetCountStable } from "./offset-count-stable.js";
import { offsetDefaultLimit } from "./offset-default-limit.js";
import { offsetLimitBounds } from "./offset-limit-bounds.js";
import { offsetPageWithinLimit } from "./offset-page-within-limit.js";
import { offsetWalkVisitsEachOnce } from "./offset-walk-visits-each-once.js";
import { pageCountIsTotal } from "./page-count-is-total.js";
import { pageDefaultLimit } from "./page-default-limit.js";
import { pageLastPageNextNull } from "./page-last-page-next-null.js";
import { pageLinksKeepFilters } from "./page-links-keep-filters.js";
import { pageNextPreviousNeighbours } from "./page-next-previous-neighbours.js";
import { pagePageWithinLimit } from "./page-page-within-limit.js";
import { rateLimitBurstMeets429 } from "./rate-limit-burst.js";
import { rateLimitRetryAfterValid } from "./rate-limit-retry-after.js";
import { schema, schemaInferred } from "./schema.js";
import {
  taskErrorCreatedResourcesNull,
  taskErrorHasReason,
  taskFinishedCreatedId,
  taskStateMovesForward,
} from "./task-rules.js";
import type { Rule } from "./types.js";

export type { Rule, RuleEvents, Verdict } from "./types.js";

export const RULES: readonly Rule[] = [
  authMissingHeader,
  authResellerClientTokenForbidden,
  offsetCountIsTotal,
  offsetCountStable,
  offsetPageWithinLimit,
  offsetWalkVisitsEachOnce,
  offsetLimitBounds,
  offsetDefaultLimit,
  offsetFilters,
  offsetOrdering,
  pageCountIsTotal,
  pageNextPreviousNeighbours,
  pageLastPageNextNull,
  pagePageWithinLimit,
  pageDefaultLimit,
  pageLinksKeepFilters,
  pageFilters,
  pageOrdering,
  errorsUnknownId404,
  taskStateMovesForward,
  taskFinishedCreatedId,
  taskErrorHasReason,
  taskErrorCreatedResourcesNull,
  rateLimitBurstMeets429,
  rateLimitRetryAfterValid,
  schema,
  schemaInferred,
];

/** A rule's result id for an operation: `${id}.${operationId}` per operation, else the rule's id. */
export const resultIdOf = (rule: Pick<Rule, "id" | "perOperation">, operationId: string) =>
  rule.perOperation ? `${rule.id}.${operationId}` : rule.id;
