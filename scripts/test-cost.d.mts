export const PARTS: string[];
/** The fixed workload every figure in baselines is relative to; answers a checksum of its work. */
export function baselineWorkload(rounds?: number): number;
export interface Measured {
  wallSeconds: number;
  /** Undefined where CPU cannot be counted. */
  cpuSeconds: number | undefined;
  status: number | string;
  /** How many processes still ran after the command (they were stopped). */
  leftover?: number;
}
/** `leftoverWaitMs`: how long processes the command left running get to end before they are stopped. */
export function cpuMeter(options?: { leftoverWaitMs?: number }): {
  how: string;
  run(command: string, args: string[], options: { cwd?: string; log: string }): Promise<Measured>;
};
export interface CostRow {
  what: string;
  wallSeconds: number;
  cpuSeconds: number | undefined;
  status: number | string;
  result?: string;
  log?: string;
  leftover?: number;
}
export function costTable(input: {
  machine: { model: string; cores: number; node: string; load: number };
  /** The baseline's runs (CPU seconds) and the least of them; undefined where CPU is not counted. */
  baseline: { least: number; runs: number[] } | undefined;
  how: string;
  rows: CostRow[];
}): string;
/** The parts asked for by `--parts`; throws, naming what is allowed, on anything else. */
export function partsOf(argv: string[]): Set<string>;
