export { createProgram, parseArgs } from "./cli-options.js";
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
} from "./context.js";
export type { ObservedExchange } from "./judge/exchange.js";
export { type ConformanceOptions, DEFAULTS, UsageError } from "./options.js";
export type { Report, ScenarioResult, ScenarioStatus } from "./report.js";
export { type RunIo, type RunResult, runConformance } from "./run.js";
