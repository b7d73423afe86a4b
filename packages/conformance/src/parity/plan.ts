// Which of a recording's entries `conformance parity` sends again, and why each other one is not.
// Reads only unless --allow-writes: a replayed write would change the target (and, against the
// platform, the user's account) to learn the shape of one answer.

import { matchOperation, type OperationModel } from "@platform-api/spec";
import { specModel } from "../facts/spec.js";
import type { ObservedExchange } from "../shared/exchange.js";

export const READS = new Set(["GET", "HEAD"]);
export const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export type SkipReason = "not in the spec" | "a write" | "no recorded answer" | "over the cap";

export interface PlannedEntry {
  /** The entry's place in the recording (0-based), so a report can name it. */
  index: number;
  exchange: ObservedExchange;
  operation: OperationModel;
}

export interface SkippedEntry {
  index: number;
  method: string;
  /** The recorded path, without its query (a query may hold anything). */
  path: string;
  operationId?: string;
  reason: SkipReason;
}

export interface ParityPlan {
  replay: PlannedEntry[];
  skipped: SkippedEntry[];
}

/** The recording's entries in order: the replayable ones, at most `maxEntries`, and the rest with why. */
export function planReplay(
  exchanges: readonly ObservedExchange[],
  { allowWrites, maxEntries }: { allowWrites: boolean; maxEntries: number },
): ParityPlan {
  const replay: PlannedEntry[] = [];
  const skipped: SkippedEntry[] = [];
  for (const [index, exchange] of exchanges.entries()) {
    const method = exchange.method.toUpperCase();
    const path = exchange.url.split("?")[0] ?? "/";
    const match = matchOperation(specModel(), method, path);
    const skip = (reason: SkipReason) =>
      skipped.push({
        index,
        method,
        path,
        ...(match ? { operationId: match.operation.operationId } : {}),
        reason,
      });
    if (!match) skip("not in the spec");
    else if (!READS.has(method) && !(allowWrites && WRITES.has(method))) skip("a write");
    // Nothing to compare the replay with.
    else if (exchange.status === null) skip("no recorded answer");
    else if (replay.length >= maxEntries) skip("over the cap");
    else replay.push({ index, exchange, operation: match.operation });
  }
  return { replay, skipped };
}
