// Last: every answer of the run judged against the spec, per operation (src/checks/schema.ts),
// the discovery's and the burst's included.

import { checkScenarios } from "../src/check-scenarios.js";
import { planChecks, SCHEMA_CHECKS } from "../src/checks/index.js";

checkScenarios(planChecks(SCHEMA_CHECKS));
