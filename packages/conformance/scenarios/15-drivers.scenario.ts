// The drivers (src/active/drivers/): what the suite sends so that every rule has exchanges to judge, on
// every operation each applies to. They assert nothing; the rule results (95-rules) report.

import { driverSteps } from "../src/active/drive.js";

driverSteps("first");
