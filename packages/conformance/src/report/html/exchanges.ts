// Facts about the recorded exchanges the HTML report shows: which operation of the spec an
// exchange called, and its timing. Evidence always holds method, path, status and an excerpt;
// the fields below are read where an exchange carries them (a report of an earlier suite, or one
// read back from report.json, may not), so the page shows what is there and says what is not.

import { matchOperation, type SpecModel } from "@platform-api/spec";
import type { Evidence } from "../../shared/context.js";

/** What an exchange may carry beyond method, path, status and excerpt. */
export interface ExchangeFacts {
  /** When the request was sent, in ms since the epoch. */
  at?: number;
  /** Milliseconds from sending the request to the end of its answer. */
  durationMs?: number;
  /** How long the suite waited after this answer before sending the request again (a 429's Retry-After). */
  waitedMs?: number;
  /** The answer's Content-Type. */
  contentType?: string;
  /** The operation the exchange called, as the suite matched it. */
  operationId?: string;
  /** An exchange another scenario (or the discovery) made, cited as evidence: not timed twice. */
  cited: boolean;
}

const msOf = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

export function factsOf(exchange: Evidence): ExchangeFacts {
  const fields: Record<string, unknown> = { ...exchange };
  const facts: ExchangeFacts = { cited: fields.cited === true };
  const at = msOf(fields.at);
  if (at !== undefined) facts.at = at;
  const durationMs = msOf(fields.durationMs);
  if (durationMs !== undefined) facts.durationMs = durationMs;
  const waitedMs = msOf(fields.waitedMs);
  if (waitedMs !== undefined) facts.waitedMs = waitedMs;
  if (typeof fields.contentType === "string") facts.contentType = fields.contentType;
  if (typeof fields.operationId === "string") facts.operationId = fields.operationId;
  return facts;
}

/**
 * The operationId an exchange called: as the suite recorded it, else by the spec's paths. A
 * target given with a base path (a live endpoint behind a prefix) sends longer paths, so the path
 * is also tried without its first segments.
 */
export function operationOfExchange(model: SpecModel, exchange: Evidence): string | undefined {
  const recorded = factsOf(exchange).operationId;
  if (recorded && model.operations.some((o) => o.operationId === recorded)) return recorded;
  const path = exchange.path.split("?")[0] ?? "";
  const segments = path.split("/");
  for (let skip = 0; skip < segments.length - 1; skip++) {
    const tail = skip === 0 ? path : `/${segments.slice(skip + 1).join("/")}`;
    const match = matchOperation(model, exchange.method, tail);
    if (match) return match.operation.operationId;
  }
  return undefined;
}

/** The p-th percentile (0–100) of ascending values by the nearest-rank method; undefined if none. */
export function percentile(ascending: readonly number[], p: number): number | undefined {
  if (ascending.length === 0) return undefined;
  const rank = Math.max(1, Math.ceil((p / 100) * ascending.length));
  return ascending[Math.min(rank, ascending.length) - 1];
}
