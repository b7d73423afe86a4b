// The drivers for operations whose path names what a create's task made (a volume's id of
// createVolume): they run after the task scenarios (70-tasks) have created it, with the value the
// run's answers gave (src/active/run-values.ts). The rule results (95-rules) report.

import { driverSteps } from "../src/active/drive.js";

driverSteps("after-creates");
