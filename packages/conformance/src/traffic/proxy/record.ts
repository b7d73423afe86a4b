// The last stage of an exchange: what passed is handed to the judge (and the recorder) as the
// judge reads it, the answer's body decoded from its content-coding.

import { flatHeaders, headersOfPairs, type ObservedExchange } from "../../shared/exchange.js";
import type { Ending, Passage } from "./accept.js";
import { decoded } from "./decode.js";
import { pairs } from "./headers.js";
import type { Tell } from "./problems.js";

/** An exchange as it passed, with the raw header lists a HAR recording keeps. */
export interface PassedExchange {
  exchange: ObservedExchange;
  httpVersion: string;
  requestRawHeaders: string[];
  /** The request body as text (bounded like the answer's), undefined when there was none. */
  requestBody: string | undefined;
  statusText: string;
  responseRawHeaders: string[];
}

/** Hands the ended exchange to `onExchange`; what that throws is told, never thrown. */
export function record(
  passage: Passage,
  ending: Ending,
  durationMs: number,
  onExchange: (passed: PassedExchange) => void,
  tell: Tell,
): void {
  const { req, requestCopy, invalid } = passage;
  const { status, statusText, rawHeaders, error } = ending;
  const headers = headersOfPairs(pairs(rawHeaders));
  const requestBytes = requestCopy.bytes();
  const answer =
    status === null ? { body: "" } : decoded(passage.responseCopy.bytes(), headers["content-encoding"]);
  if (answer.problem) {
    invalid.push(answer.problem);
    tell("content-encoding", `the upstream sent ${answer.problem}; judged as a failure of the answer`);
  }
  try {
    onExchange({
      exchange: {
        method: req.method ?? "GET",
        url: passage.url,
        requestHeaders: flatHeaders(req.headers),
        ...(requestCopy.seen && requestBytes ? { requestBody: requestBytes.toString("utf8") } : {}),
        status,
        responseHeaders: headers,
        body: answer.body,
        at: passage.at,
        durationMs,
        ...(error ? { error } : {}),
        ...(invalid.length > 0 ? { invalid: [...invalid] } : {}),
      },
      httpVersion: `HTTP/${req.httpVersion}`,
      requestRawHeaders: passage.requestRawHeaders,
      requestBody: requestCopy.seen ? requestBytes?.toString("utf8") : undefined,
      statusText,
      responseRawHeaders: rawHeaders,
    });
  } catch (error) {
    tell("internal", `judging or recording an exchange failed: ${(error as Error).message}`);
  }
}
