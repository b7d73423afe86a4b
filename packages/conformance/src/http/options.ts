// What an HTTP layer is given, and what it tells as it goes.

import type { Wait } from "../shared/activity.js";
import type { Evidence } from "../shared/context.js";
import type { ObservedExchange } from "../shared/exchange.js";
import type { Pacer } from "../shared/pacer.js";
import type { Stall } from "./stall.js";

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  resellerApiKey?: string;
  pacer: Pacer;
  /** Called with every exchange, retries included. */
  record?: (evidence: Evidence) => void;
  /** Called with every exchange as it happened, retries included (what the judge reads). */
  exchanged?: (exchange: ObservedExchange) => void;
  /** Names the exchanges' producer (`ObservedExchange.by`). */
  by?: string;
  /** How long a request waits for its answer (default TIMEOUT_MS). */
  timeoutMs?: number;
  /** How long one exchange may take in all, headers and body (default DEADLINE_MS). */
  deadlineMs?: number;
  /** The most of an answer's body that is read (default MAX_ANSWER_BYTES). */
  maxBodyBytes?: number;
  /** Multiplies retry waits (the embedded simulator runs fast). */
  timeScale?: number;
  /**
   * Called when a request has had no answer for NOTICE_AFTER_MS, once per try (nothing is printed
   * unless the caller does: library use and tests stay quiet).
   */
  stalled?: (stall: Stall) => void;
  /** Told as each request leaves (retries included): what a run's progress counts. */
  sending?: (request: { method: string; url: string }) => void;
  /**
   * Told as a wait begins (before a retry: after a 429, a 5xx, no answer) or after one the pacer
   * made: what a run's progress shows and its time account adds up.
   */
  waiting?: (wait: Wait) => void;
}
