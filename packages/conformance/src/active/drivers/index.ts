// The active run's drivers, in the order they run (scenarios/15-drivers.scenario.ts): what the
// suite sends so that every rule of the registry has exchanges to judge. A new driver is one file
// here and one line below; it asserts nothing (the rules do).

import { missingAuth } from "./missing-auth.js";
import { offsetListDriver } from "./offset-list.js";
import { pageListDriver } from "./page-list.js";
import { probes } from "./probes.js";
import type { Driver } from "./types.js";
import { unknownIds } from "./unknown-ids.js";

export type { Driver, DriverApi } from "./types.js";

export const DRIVERS: readonly Driver[] = [missingAuth, offsetListDriver, pageListDriver, unknownIds, probes];
