// Every option of a conformance run with its default, in one place (the CLI, the README and the
// plain-vitest global setup follow it). The bag's type and its checks live lower
// (src/shared/conformance-options.ts, src/discovery/check-options.ts): the producers read them too.

import { defaultRateLimit } from "../facts/rate.js";
import { KEY_VARIABLES, SIMULATOR_TIME_SCALE } from "../shared/conformance-options.js";

export const DEFAULTS = {
  target: "simulator",
  ...KEY_VARIABLES,
  allowWrites: false,
  allowBurst: false,
  only: [] as string[],
  /** Half the platform's request rate (x-rate-limits), per second. */
  get rateLimit(): number {
    return defaultRateLimit();
  },
  report: "conformance-report",
  strict: false,
  failOnFlaky: false,
  dryRun: false,
  simulatorTimeScale: SIMULATOR_TIME_SCALE,
} as const;
