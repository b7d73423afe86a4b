// The thread's numbering of exchanges, and how to send each recent one again: a failure on a 5xx or
// on no answer is confirmed before it is called one, and shown as a curl command.

import { threadId } from "node:worker_threads";
import { BoundedMap } from "../shared/bounded-map.js";
import type { Answer } from "./answer.js";
import type { KeyVariables } from "./request.js";

/**
 * The run's number of the last exchange (Evidence.seq): one numbering for every HTTP layer of the
 * thread, apart from other threads' (the discovery's in the main thread, the scenarios' in their
 * worker), so an exchange's number names it across the run.
 */
let lastSeq = threadId * 1_000_000_000;

/** The number of the exchange about to leave. */
export const nextSeq = (): number => ++lastSeq;

/**
 * How to send each recent exchange's request again, by its seq. Bounded: a failure is confirmed
 * soon after it happens (a rule's result at the end of its file), never thousands of exchanges later.
 */
const resends = new BoundedMap<
  number,
  { again: () => Promise<Answer>; curl: (variables: KeyVariables) => string }
>(20_000);

/** Keeps how to send exchange `seq` again, and how to write it as curl. */
export function remember(
  seq: number,
  again: () => Promise<Answer>,
  curl: (variables: KeyVariables) => string,
): void {
  resends.set(seq, { again, curl });
}

/** Sends an exchange's request again as it was sent (its HTTP layer, key, pacing and retries). */
export const resendOf = (seq: number | undefined): (() => Promise<Answer>) | undefined =>
  seq === undefined ? undefined : resends.get(seq)?.again;

/** An exchange's request as a curl command, each key as "$VARIABLE" (undefined: not one this thread sent). */
export const curlOfExchange = (seq: number | undefined, variables: KeyVariables): string | undefined =>
  seq === undefined ? undefined : resends.get(seq)?.curl(variables);
