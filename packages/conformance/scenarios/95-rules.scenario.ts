// Last: every rule of the registry (src/rules/) on every operation it applies to, its verdict read
// from the run's judge: every exchange of the run (the discovery's, the drivers', the stories', the
// burst's) judged by the same rules `observe` and `verify --har` apply to traffic.

import { ruleResultScenarios } from "../src/active/rule-results.js";

ruleResultScenarios();
