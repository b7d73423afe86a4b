// A one-off told from a defect: before a result is called failed because of a 5xx or a lost
// answer, the request it failed on is sent again (after the seed's advice for a 500, paced and
// retried as it was sent). A failure that does not repeat is flaky: its own status, shown with the
// exchange it failed on and the answer the request got when sent again.

import { evidenceOf, resendOf, SERVER_ERROR_PAUSE_MS, sleep } from "../http/http.js";
import type { Evidence } from "../shared/context.js";
import { Deviation } from "./check.js";

/** The most distinct requests one result's failure is confirmed by: the rest stay as they were. */
export const MAX_RESENT = 3;
/**
 * How many times a request is sent again before its 5xx counts as repeated: it repeats only when
 * every try fails. Against a target failing 30% of its answers at random, one re-send called a
 * one-off repeated 3 times in 10 for a POST (not retried by the HTTP layer): two identical runs
 * failed different results. Five tries make that 0.3⁵ < 0.3%; a real defect costs five more requests.
 */
export const CONFIRM_TRIES = 5;

/** The exchanges a thrown failure is about: a check's answers, or the exchange that got no answer. */
export function failureEvidence(error: unknown): Evidence[] {
  if (error instanceof Deviation)
    return [
      ...error.answers.map((a) => evidenceOf(a)).filter((e): e is Evidence => e !== undefined),
      ...error.evidence,
    ];
  const own = typeof error === "object" && error !== null ? evidenceOf(error) : undefined;
  return own ? [own] : [];
}

/** A 5xx or no answer at all: what the seed calls temporary, and what a one-off looks like. */
export const isTransient = (e: Pick<Evidence, "status">): boolean => e.status === null || e.status >= 500;

export interface Confirmation {
  /** Whether the failure repeated: some request answered 5xx (or nothing) on every try again. */
  repeated: boolean;
  /** The exchanges of the requests sent again (their last tries), in the order of `failed`. */
  again: Evidence[];
}

/**
 * Sends the requests of `failed` again when every one is a 5xx or lost answer this run can send
 * again; undefined when the failure is none of those (it is the target's answer: no re-send).
 */
export async function confirmFailure(
  failed: Evidence[],
  timeScale: number,
): Promise<Confirmation | undefined> {
  const distinct = [...new Map(failed.map((e) => [`${e.method} ${e.path}`, e])).values()];
  if (distinct.length === 0 || distinct.length > MAX_RESENT) return undefined;
  if (!distinct.every((e) => isTransient(e) && resendOf(e.seq) !== undefined)) return undefined;
  await sleep(SERVER_ERROR_PAUSE_MS * timeScale);
  const again: Evidence[] = [];
  let repeated = false;
  for (const e of distinct) {
    let last: Evidence | undefined;
    let failedEveryTry = true;
    for (let attempt = 0; attempt < CONFIRM_TRIES && failedEveryTry; attempt++) {
      if (attempt > 0) await sleep(SERVER_ERROR_PAUSE_MS * timeScale);
      try {
        const answer = await (resendOf(e.seq) as NonNullable<ReturnType<typeof resendOf>>)();
        last = evidenceOf(answer) ?? last;
        if (answer.status < 500) failedEveryTry = false;
      } catch (error) {
        last = failureEvidence(error)[0] ?? last;
      }
    }
    if (last) again.push(last);
    if (failedEveryTry) repeated = true;
  }
  return { repeated, again };
}
