// What a run's results and report hold, as data: the judge and the producers fill them, the
// renderers (src/report/) write them out. Types only, so that every floor may name them.

import type { CreatedResource, Evidence, Severity } from "./context.js";
import type { Finding } from "./finding.js";

/**
 * `flaky`: it failed on a 5xx or a lost answer that did not repeat when its request was sent again
 * (src/active/flaky.ts). Counted apart: alone it is no failure, unless --fail-on-flaky.
 */
export type ScenarioStatus = "passed" | "failed" | "warned" | "skipped" | "flaky";

export interface ScenarioResult {
  id: string;
  title: string;
  severity: Severity;
  status: ScenarioStatus;
  operation: string;
  /** The registry rule it reports (src/rules/), for a result of one: `${check}.${operation}` is its id. */
  check?: string;
  reason: string | null;
  evidence: Evidence[];
  /** Failed, warned or flaky: indexes into `evidence` of the exchanges it failed on (shown first). */
  failedOn?: number[];
  /** Flaky: indexes into `evidence` of the exchanges its failed request got when sent again. */
  flaky?: { retriedOn: number[] };
  /** Failed, warned or flaky: a curl command that sends the request it failed on again (the token as "$VARIABLE"). */
  curl?: string;
  durationMs: number;
  created?: CreatedResource[];
  /** --dry-run only: what it would call, and whether it would run. */
  calls?: string[];
  plan?: "run" | "skip";
}

/** What traffic held, and what the judge let go to stay within its limits (`observe`, `verify --har`). */
export interface TrafficSummary {
  /** Every exchange seen. */
  exchanges: number;
  /** Exchanges of an operation the spec describes, judged. */
  judged: number;
  /** Requests that got no answer (the upstream unreachable, the connection cut). */
  noAnswer: number;
  /** Exchanges to an operation the spec does not describe: counted apart, never judged. */
  undescribed: { count: number; examples: string[] };
  /** What the judge let go to stay within its limits; all zero when it kept everything. */
  dropped: { walks: number; items: number; tasks: number; tokens: number; bodies: number };
  limits: JudgeLimits;
}

/** The judge's bounds (src/judge/judge.ts LIMITS), as a report states them. */
export interface JudgeLimits {
  walks: number;
  itemsPerWalk: number;
  tasks: number;
  tokens: number;
  evidence: number;
  problems: number;
  undescribed: number;
}

export interface Report {
  target: string;
  startedAt: string;
  durationMs: number;
  options: Record<string, unknown>;
  /** `flaky` counts results whose 5xx or lost answer did not repeat (absent in reports of older versions). */
  summary: { passed: number; failed: number; warned: number; skipped: number; flaky?: number };
  scenarios: ScenarioResult[];
  createdResources: CreatedResource[];
  /** `observe` and `verify --har` only: what the traffic held, and what the judge let go. */
  traffic?: TrafficSummary;
  /** `fuzz` only: how it generated, and each finding with its smallest request. */
  fuzz?: FuzzReport;
  /** Where the run's time went (an active run and fuzz): its parts add up to durationMs. */
  time?: TimeAccount;
}

/** What a fuzz run adds to its report. */
export interface FuzzReport {
  seed: number;
  phases: string[];
  maxExamples: number;
  /** Requests generated and sent (retries not counted). */
  requests: number;
  /** One per failed result: its smallest request, as JSON and as curl. */
  findings: Finding[];
  /** The --baseline file, and how many findings it accepted. */
  baseline?: { file: string; known: number };
  /** `--replay`: each finding sent again, and whether it still fails (or why it was not sent). */
  replay?: { id: string; severity: Severity; stillFails: boolean; status: number | null; skipped?: string }[];
  /** Answers larger than the suite reads (MAX_ANSWER_BYTES): cut, their bodies not judged. */
  cutAnswers?: number;
  /** Why the run ended before its phases (or its replay) did: an interrupt, a target that failed everything. */
  stopped?: string;
  /** Each resource a PUT replaced, read first, and what became of putting it back. */
  restored?: { operationId: string; path: string; outcome: string }[];
}

/** Where the run's time went (report.json's `time`): the parts add up to the run's durationMs. */
export interface TimeAccount {
  /** Requests sent (retries included), and the wall time with at least one waiting for its answer. */
  requests: { count: number; ms: number };
  /**
   * The wall time the suite waited with no request in flight, by reason: "after 429", "after 500"
   * (before a retry), "after no answer", "pacing" (its own rate limit).
   */
  waits: { reason: string; count: number; ms: number }[];
  /** The rest: starting the target and vitest, discovery's and the judge's own work, task polls' pauses, the reports. */
  suiteMs: number;
}
