// What `conformance parity` found, per operation and overall: the figures the renderers print and
// parity.json holds. Built from the comparisons alone, so it can be tested without a target.

import type { Difference } from "./compare.js";
import type { SkippedEntry, SkipReason } from "./plan.js";

export interface ComparedExchange {
  index: number;
  operationId: string;
  method: string;
  path: string;
  differences: Difference[];
  /** The replay got no answer (the target unreachable, too slow, an answer too large). */
  noAnswer?: boolean;
}

export interface OperationParity {
  operationId: string;
  compared: number;
  identical: number;
  /** identical / compared, in percent, one decimal. */
  parity: number;
  /** Each field path and what differs there, with how many exchanges showed it; most first. */
  differences: { path: string; what: string; count: number }[];
}

export interface ParityReport {
  tool: "platform-api-conformance parity";
  version: string;
  har: string;
  target: string;
  startedAt: string;
  durationMs: number;
  /** Entries in the recording (under --base-url when given). */
  entries: number;
  /** Entries outside --base-url, not read at all. */
  outside: number;
  compared: number;
  identical: number;
  /** Overall: identical / compared, in percent, one decimal; null when nothing was compared. */
  parity: number | null;
  /** Why entries were not replayed, with how many. */
  skipped: Partial<Record<SkipReason, number>>;
  /** The replay was stopped (Ctrl-C) before every planned entry was sent. */
  interrupted: boolean;
  operations: OperationParity[];
  /** The first skipped entries, for the reader who wants to know which (at most MAX_LISTED). */
  skippedEntries: SkippedEntry[];
}

/** How many skipped entries a report lists one by one (it counts them all). */
export const MAX_LISTED = 50;

const percent = (part: number, whole: number) => Math.round((part / whole) * 1000) / 10;

export function buildParityReport(
  meta: Pick<
    ParityReport,
    "version" | "har" | "target" | "startedAt" | "durationMs" | "entries" | "outside" | "interrupted"
  >,
  compared: readonly ComparedExchange[],
  skipped: readonly SkippedEntry[],
): ParityReport {
  const byOperation = new Map<string, ComparedExchange[]>();
  for (const exchange of compared) {
    const list = byOperation.get(exchange.operationId) ?? [];
    list.push(exchange);
    byOperation.set(exchange.operationId, list);
  }
  const operations = [...byOperation].map(([operationId, exchanges]): OperationParity => {
    const identical = exchanges.filter((e) => e.differences.length === 0).length;
    const counts = new Map<string, { path: string; what: string; count: number }>();
    for (const exchange of exchanges)
      for (const d of exchange.differences) {
        const key = `${d.path}\u0000${d.what}`;
        const seen = counts.get(key) ?? { path: d.path, what: d.what, count: 0 };
        seen.count++;
        counts.set(key, seen);
      }
    return {
      operationId,
      compared: exchanges.length,
      identical,
      parity: percent(identical, exchanges.length),
      differences: [...counts.values()].sort((a, b) => b.count - a.count || a.path.localeCompare(b.path)),
    };
  });
  operations.sort((a, b) => a.operationId.localeCompare(b.operationId));
  const identical = compared.filter((e) => e.differences.length === 0).length;
  const reasons: Partial<Record<SkipReason, number>> = {};
  for (const s of skipped) reasons[s.reason] = (reasons[s.reason] ?? 0) + 1;
  return {
    tool: "platform-api-conformance parity",
    ...meta,
    compared: compared.length,
    identical,
    parity: compared.length === 0 ? null : percent(identical, compared.length),
    skipped: reasons,
    operations,
    skippedEntries: skipped.slice(0, MAX_LISTED),
  };
}
