// The suite's own names are never redacted as if they were a key (src/active/vocabulary.ts registers them).
import "./active/vocabulary.js";

export { runConformance } from "./active/run.js";
export { createProgram, parseArgs } from "./cli/cli-options.js";
export { DEFAULTS } from "./cli/options.js";
export { FUZZ_DEFAULTS, type FuzzOptions } from "./fuzz/options.js";
export { runFuzz } from "./fuzz/run.js";
export type { RunIo, RunResult } from "./report/run-output.js";
export type { ConformanceOptions } from "./shared/conformance-options.js";
export type {
  CreatedResource,
  Discovery,
  DiscoveryStep,
  Evidence,
  JudgedExchange,
  RecordedExchange,
  RunContext,
  ScenarioMeta,
  Severity,
  TargetKind,
} from "./shared/context.js";
export type { ObservedExchange } from "./shared/exchange.js";
export type { Finding, FuzzRequest, Phase } from "./shared/finding.js";
export type { FuzzReport, Report, ScenarioResult, ScenarioStatus } from "./shared/results.js";
export { UsageError } from "./shared/usage-error.js";
