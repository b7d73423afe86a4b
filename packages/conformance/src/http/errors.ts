// What a call that got no answer it can judge ends in: a NoAnswerError, or a CutAnswerError (an
// answer larger than the suite reads) that every caller handling the first handles too.

import { seconds } from "./seconds.js";

export class NoAnswerError extends Error {
  constructor(
    readonly call: string,
    override readonly cause: unknown,
    redact: (text: string) => string = (text) => text,
    /** How many times the request was sent, and how long that took from the first send. */
    readonly tried?: { tries: number; ms: number },
  ) {
    const reason = (cause as Error)?.message ?? cause;
    super(
      redact(
        tried
          ? `${call}: no answer after ${tried.tries} ${tried.tries === 1 ? "try" : "tries"} in ${seconds(tried.ms)} s (the last: ${reason})`
          : `${call}: no answer (${reason})`,
      ),
    );
    this.name = "NoAnswerError";
  }
}

/**
 * An answer larger than the suite reads (MAX_ANSWER_BYTES): cut there, never judged, and never
 * taken for an answer. It is a NoAnswerError, so every caller that handles a call without an answer
 * handles it; the status the target sent is kept for the evidence.
 */
export class CutAnswerError extends NoAnswerError {
  constructor(
    call: string,
    readonly status: number,
    readonly maxBytes: number,
    redact?: (text: string) => string,
  ) {
    super(call, new Error(cutMessage(maxBytes)), redact);
    // An answer came: "no answer" would send the reader looking for a target that is not there.
    this.message = `${call}: ${cutMessage(maxBytes)} (status ${status})`;
    this.name = "CutAnswerError";
  }
}

/** What a cut answer's exchange says, in its evidence and its error. */
export function cutMessage(maxBytes: number): string {
  return `answer larger than ${maxBytes} bytes: cut, not judged as JSON`;
}
