// The bounds of the suite's HTTP layer: how long a request waits and is waited on, how much of an
// answer is read, how often and after how long a request goes again.

import { MAX_JUDGED_BODY_BYTES } from "../shared/exchange.js";

/**
 * How long a request may go without an answer before `stalled` is told (a fixed delay, in real
 * time: well below the request timeout, so a silent target is named within seconds).
 */
export const NOTICE_AFTER_MS = 3000;
/** How long a request waits for its answer, unless `timeoutMs` says otherwise. */
export const TIMEOUT_MS = 15_000;
/**
 * The most of an answer's body the suite reads: the bound observe judges bodies to. Past it the
 * connection is cut and the call ends in a CutAnswerError, so a target that answers gigabytes costs
 * a run this much memory, not the process.
 */
export const MAX_ANSWER_BYTES = MAX_JUDGED_BODY_BYTES;
/**
 * How long one exchange may take in all, from the send to the last byte of the answer. The socket's
 * timeout (TIMEOUT_MS) counts only silence, so a body that trickles a byte every few seconds would
 * otherwise hold a run for ever.
 */
export const DEADLINE_MS = 60_000;
/** How many times a request without an answer is sent again (idempotent ones, unless `retry: false`). */
export const RETRIES = 3;
/** The pause before a request without an answer is sent again (× the time scale). */
export const RETRY_PAUSE_MS = 1000;

/**
 * The pause before a request that answered 5xx goes again (× the time scale), unless the answer
 * advised one: the seed's "500: temporary server-side problem; retry after a few seconds".
 */
export const SERVER_ERROR_PAUSE_MS = 1000;
