// The registry's checks that call the target (src/checks/), on every operation each applies to:
// missing auth on every read, offset and page pagination on every list of the spec's
// x-pagination, 404 on every read that documents it.

import { checkScenarios } from "../src/check-scenarios.js";
import { CALLING_CHECKS, planChecks } from "../src/checks/index.js";

checkScenarios(planChecks(CALLING_CHECKS));
