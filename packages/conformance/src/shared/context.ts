// What a run knows before its first scenario: the target, the keys, the discovered project and
// region, and the options. The CLI (or the global setup under plain vitest) builds it in the main
// process and hands it to the scenario workers through vitest's `provide`/`inject`.

import type { ObservedExchange } from "./exchange.js";

export type TargetKind = "simulator" | "prism" | "url";
export type Severity = "must" | "should";

/** Preconditions a scenario (or a rule, for its result in an active run) can declare. */
export type Need =
  | "writes" // creates or changes a resource: --allow-writes
  | "burst" // exceeds the platform's request rate: --allow-burst
  | "state" // needs a server that keeps state (not Prism)
  | "real-auth" // needs a server that checks tokens (not Prism)
  | "rate-limited" // needs a server that enforces the rate limit (not Prism)
  | "reseller" // needs the reseller key
  | "profile" // needs a protection profile id
  | "gpu-flavor" // needs a GPU flavor name
  | "project" // needs the project (the default one, discovered, or --project-id)
  | "region"; // needs the region (an ACTIVE one, discovered, or --region-id)

export interface RunContext {
  target: {
    kind: TargetKind;
    /** Base URL, e.g. http://127.0.0.1:4020 */
    url: string;
    /** Printed in reports instead of the URL's secrets (there are none) and the keys (never). */
    label: string;
    apiKey: string;
    /** Absent when no reseller key was given: reseller scenarios are skipped. */
    resellerApiKey?: string;
  };
  /** Names of the environment variables the keys came from (for messages; never the keys). */
  keySources: { apiKey: string; resellerApiKey: string };
  discovered: {
    /** Absent when discovery could not give it: `missing` says why, and what needs it skips. */
    projectId?: number;
    regionId?: number;
    regionName?: string;
    /** A volume type the region offers (first of available_volume_types). */
    volumeType?: string;
    /** The spec has no list of protection profiles, so the id must be given or known. */
    protectionProfileId?: number;
    /** Flavor for check_limits; its allowed values are not in the spec. */
    gpuFlavor?: string;
    /** Why a value is missing (a discovery answer that broke the spec, named in its result). */
    missing?: { projectId?: string; regionId?: string };
  };
  /** What the discovery before the first scenario asked and found: reported as discovery.* and judged. */
  discovery: Discovery;
  allowWrites: boolean;
  allowBurst: boolean;
  strict: boolean;
  dryRun: boolean;
  /** Globs over scenario ids; empty runs every scenario. */
  only: string[];
  /** Requests per second of every scenario but the burst. */
  rateLimit: number;
  /** Multiplies polling intervals and deadlines (and the embedded simulator's task durations). */
  timeScale: number;
  /** Where every exchange is written as the judge read it (ConformanceOptions.recordExchanges). */
  recordExchanges?: string;
  /**
   * The BroadcastChannel the scenarios tell what they send and wait for (src/report/progress.ts): the
   * CLI's progress and report.json's time account. Absent: they tell nothing.
   */
  activity?: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    conformance: RunContext;
  }
}

export interface Evidence {
  method: string;
  path: string;
  status: number | null;
  excerpt: string;
  /** The operation the exchange called (by the spec's paths). */
  operationId?: string;
  contentType?: string | null;
  /** When the request started (ms since the epoch) and how long its answer took. */
  at?: number;
  durationMs?: number;
  /** How long the suite waited after this answer before retrying it (a 429's Retry-After). */
  waitedMs?: number;
  /** An exchange made by another scenario (or the discovery), added to this one's evidence. */
  cited?: boolean;
  /**
   * Active runs: the run's number of the exchange, the same in every result that shows it (a
   * result's own evidence, the judge's, a cited one), so results are grouped by the answer they
   * failed on and a failure's request can be sent again.
   */
  seq?: number;
  /**
   * The request's and the answer's headers (names lower-cased; src/http/shown-headers.ts): every
   * value redacted, a credential's (Authorization, cookies, key headers) shown as *** only, at most
   * 32 headers of 256 characters each, a cut said where it is made.
   */
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
  /** An excerpt of the request body (redacted, then cut like the answer's, the cut said); absent without one. */
  requestBody?: string;
}

/** One answer judged against the spec: what breaks what the seed states, what breaks an inference. */
export interface JudgedExchange {
  operationId: string;
  evidence: Evidence;
  /** Breaks what the seed states: a documented status, content type, or schema (inferences optional). */
  must: string[];
  /** Breaks only what the spec infers (x-inferred-required). */
  should: string[];
}

/**
 * A judged answer and the result whose call it was ("discovery.default-project", "auth.wrong-token").
 * @deprecated The run's judge reads exchanges (`ObservedExchange`); nothing in the suite makes these now.
 */
export interface RecordedExchange extends JudgedExchange {
  by: string;
}

export type DiscoveryStepId =
  | "discovery.current-client"
  | "discovery.default-project"
  | "discovery.active-region";

/** One step of the discovery, reported as a result of its own (scenarios/00-discovery.scenario.ts). */
export interface DiscoveryStep {
  id: DiscoveryStepId;
  status: "passed" | "failed" | "skipped";
  reason: string | null;
  evidence: Evidence[];
  /** How long it took, its retries and the waits before them included. */
  durationMs?: number;
}

export interface Discovery {
  steps: DiscoveryStep[];
  /** Every discovery exchange, as it happened: the run's judge reads them first. */
  exchanges: ObservedExchange[];
}

export interface CreatedResource {
  type: string;
  id: string;
  project_id?: number;
  region_id?: number;
  task_id?: string;
}

/** What a scenario leaves on its vitest test case (`task.meta`) for the reporters. */
export interface ScenarioMeta {
  scenario?: {
    id: string;
    title: string;
    severity: Severity;
    operation: string;
    check?: string;
    calls: string[];
  };
  evidence?: Evidence[];
  /** Why it was skipped or warned. */
  reason?: string;
  warned?: boolean;
  created?: CreatedResource[];
  /** Not selected by --only: left out of reports altogether. */
  unselected?: boolean;
  /** Would it run (dry run)? */
  plan?: "run" | "skip";
  /** Indexes into `evidence` of the exchanges it failed (or warned) on. */
  failedOn?: number[];
  /** The request it failed on as a curl command, the keys as "$VARIABLE". */
  curl?: string;
  /** It failed on a 5xx or lost answer that did not repeat: `retriedOn` indexes the re-sent exchanges. */
  flaky?: { retriedOn: number[] };
  /** Time the result took before its test ran (the discovery's step), added to its durationMs. */
  tookMs?: number;
}
