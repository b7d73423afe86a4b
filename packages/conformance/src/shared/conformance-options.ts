// The option bag of a run, as a type every floor may name: the CLI fills it (src/cli/options.ts
// holds its defaults), the producers and the report read it.

export interface ConformanceOptions {
  /** "simulator" (in-process, the default), "prism", or the base URL of a server. */
  target: string;
  /** Environment variable holding the client key for a URL target. */
  apiKeyEnv: string;
  /** Environment variable holding the reseller key (optional; reseller scenarios skip without it). */
  resellerApiKeyEnv: string;
  allowWrites: boolean;
  allowBurst: boolean;
  only: string[];
  /** Requests per second of every scenario but the burst. */
  rateLimit: number;
  projectId?: number;
  regionId?: number;
  protectionProfileId?: number;
  gpuFlavor?: string;
  report: string;
  strict: boolean;
  /**
   * Count flaky results (a 5xx or lost answer that did not repeat when its request was sent again)
   * as failures: exit 1 on them. Default false: alone they are exit 0, the verdict saying so.
   */
  failOnFlaky?: boolean;
  dryRun: boolean;
  /** Default: 0.01 for the embedded simulator, 1 for any other target. */
  timeScale?: number;
  /**
   * Library use only (no flag): a file the run writes every exchange to as the judge read it (JSON
   * lines of ObservedExchange, tokens replaced by their labels: "APIKey token 1"), so that the same
   * traffic can be judged again in-process (the suite's own teeth tests).
   */
  recordExchanges?: string;
}

/** The embedded simulator's time scale when the run gives none (`timeScale`). */
export const SIMULATOR_TIME_SCALE = 0.01;

/**
 * The environment variables the keys are read from unless the run names others: a report or a
 * redactor knows them even when the run was given other names.
 */
export const KEY_VARIABLES = {
  apiKeyEnv: "GCORE_API_KEY",
  resellerApiKeyEnv: "GCORE_RESELLER_API_KEY",
} as const;
