// Pacing and retries: the suite's own rate before each request, and when a request goes again —
// after no answer (idempotent ones), a 429 or a 5xx — and after how long.

import type { Request } from "../facts/api.js";
import { requestRate, retryAfterMs } from "../facts/rate.js";
import type { Pacer } from "../shared/pacer.js";
import type { Answer } from "./answer.js";
import { RETRIES, RETRY_PAUSE_MS, SERVER_ERROR_PAUSE_MS } from "./bounds.js";

/** How often a call may be sent, and the pause between tries without an answer. */
export interface Tries {
  /** Whether the call may go again at all (`retry: false` says no). */
  retry: boolean;
  /** Not a POST: may go again without an answer, and after a 5xx. */
  idempotent: boolean;
  /** How many times it goes again without an answer, or after a 5xx. */
  retries: number;
  /** How many sends without an answer it gets in all. */
  tries: number;
  pauseMs: number;
}

export function triesOf(call: Request, scale: number): Tries {
  const retry = call.retry ?? true;
  const idempotent = call.method !== "POST";
  const retries = call.retries ?? RETRIES;
  return {
    retry,
    idempotent,
    retries,
    tries: retry && idempotent ? retries + 1 : 1,
    pauseMs: RETRY_PAUSE_MS * scale,
  };
}

/** Waits for the pacer; a wait of a millisecond or more is `told` (when it began, how long). */
export async function paced(pacer: Pacer, told: (at: number, ms: number) => void): Promise<void> {
  const pacedAt = Date.now();
  const before = performance.now();
  await pacer.wait();
  const ms = performance.now() - before;
  if (ms >= 1) told(pacedAt, Math.round(ms));
}

/**
 * Whether an answered request goes again (try `attempt`, 0 the first): after the rate's status
 * (429), or a 5xx of an idempotent request while it has retries left (`serverErrorRetries` used).
 */
export function againAfter(
  status: number,
  tries: Tries,
  attempt: number,
  serverErrorRetries: number,
): { again: boolean; limited: boolean; serverError: boolean } {
  const limited = status === requestRate().exceededStatus;
  const serverError = tries.idempotent && [500, 502, 503, 504].includes(status);
  const again =
    tries.retry && attempt < RETRIES && (limited || (serverError && serverErrorRetries < tries.retries));
  return { again, limited, serverError };
}

/**
 * The pause before an answered request goes again. The seed: 429 "slow down and retry" (without
 * Retry-After, after the rate's period); 500 "retry after a few seconds".
 */
export function pauseAfter(answer: Answer, limited: boolean, scale: number): number {
  const advised = retryAfterMs(answer.headers["retry-after"]);
  const fallback = limited ? requestRate().periodSeconds * 1000 : SERVER_ERROR_PAUSE_MS;
  return Math.min(advised ?? fallback, 10_000) * (advised === undefined ? scale : 1);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, Math.max(0, ms)));
}
