// The traffic judge's registry: every rule it applies to exchanges a client made, in report order.
// Rules that are registry checks (src/checks/) report under the check's id; the others under the
// id of the scenario whose rule they are, or (tasks.error.*) under their own: an active run reaches
// ERROR only through the quota story, whose results say more (tasks.quota.*).

import { authMissingHeader } from "./auth-missing-header.js";
import { authResellerClientTokenForbidden } from "./auth-reseller-forbidden.js";
import { offsetCountIsTotal } from "./offset-count-is-total.js";
import { offsetCountStable } from "./offset-count-stable.js";
import { offsetPageWithinLimit } from "./offset-page-within-limit.js";
import { offsetWalkVisitsEachOnce } from "./offset-walk-visits-each-once.js";
import { pageLinksKeepFilters } from "./page-links-keep-filters.js";
import { pageNextPreviousNeighbours } from "./page-next-previous-neighbours.js";
import { pagePageWithinLimit } from "./page-page-within-limit.js";
import { rateLimitBurstMeets429 } from "./rate-limit-burst.js";
import { rateLimitRetryAfterValid } from "./rate-limit-retry-after.js";
import { schema, schemaInferredRule } from "./schema.js";
import {
  taskErrorCreatedResourcesNull,
  taskErrorHasReason,
  taskFinishedCreatedId,
  taskStateMovesForward,
} from "./task-rules.js";
import type { TrafficRule } from "./types.js";

export type { TrafficEvents, TrafficRule, Verdict } from "./types.js";

export const TRAFFIC_RULES: readonly TrafficRule[] = [
  authMissingHeader,
  authResellerClientTokenForbidden,
  offsetCountIsTotal,
  offsetCountStable,
  offsetPageWithinLimit,
  offsetWalkVisitsEachOnce,
  pageNextPreviousNeighbours,
  pagePageWithinLimit,
  pageLinksKeepFilters,
  taskStateMovesForward,
  taskFinishedCreatedId,
  taskErrorHasReason,
  taskErrorCreatedResourcesNull,
  rateLimitBurstMeets429,
  rateLimitRetryAfterValid,
  schema,
  schemaInferredRule,
];
