// The stage that passes the upstream's answer to the client as it comes — status, reason phrase,
// header names as written, body chunk by chunk — or, when it cannot be passed on (a status that is
// none, headers Node cannot write), gives the client the proxy's own 502 and the judge the answer
// as it came.

import type { IncomingMessage } from "node:http";
import type { Passage } from "./accept.js";
import { endToEnd } from "./headers.js";
import { proxyAnswer } from "./own-answer.js";
import type { Relay } from "./relay.js";

/** Characters a reason phrase may not hold (RFC 9112 §4: HTAB, SP, VCHAR, obs-text). */
const NOT_IN_REASON = /[^\t\x20-\x7e\x80-\xff]/g;

/** Passes `answer` (the upstream's) to the passage's client, and ends the passage when it has. */
export function passAnswer(
  passage: Passage,
  answer: IncomingMessage,
  relay: Pick<Relay, "upstream" | "tell">,
) {
  const { res, invalid } = passage;
  const { tell } = relay;
  passage.responded = true;
  const rawHeaders = endToEnd(answer.rawHeaders);
  const status = answer.statusCode ?? 0;
  const statusText = answer.statusMessage ?? "";
  answer.on("data", (chunk: Buffer) => passage.responseCopy.add(chunk));
  answer.on("error", (error) => {
    res.destroy();
    passage.end({
      status: null,
      statusText: "",
      rawHeaders: [],
      error: `the answer broke off: ${error.message}`,
    });
  });
  answer.on("end", () => passage.end({ status, statusText, rawHeaders }));
  /** An answer that cannot be passed on: the client gets the proxy's 502, the answer is judged as it came. */
  const refuse = (kind: string, finding: string, told: string) => {
    invalid.push(finding);
    tell(kind, `${told}; the client got the proxy's 502`);
    proxyAnswer(res, "invalid-answer", told);
    answer.resume();
  };
  // Node writes any three-digit status; none below 100 (`000`) is a status at all.
  if (!(status >= 100 && status <= 999)) {
    const what = `status ${answer.statusCode === undefined ? "(none)" : String(status).padStart(3, "0")}, which is no HTTP status code`;
    refuse(
      "status",
      `the upstream answered ${what}`,
      `the upstream ${relay.upstream.origin} answered ${what}`,
    );
    return;
  }
  // The reason phrase is advisory (RFC 9112 §4): one that holds characters no server may
  // send passes without them.
  const reason = statusText.replace(NOT_IN_REASON, "");
  if (reason !== statusText) {
    invalid.push("the reason phrase of the status line holds a control character");
    tell(
      "reason-phrase",
      "the upstream's reason phrase holds a control character; the answer passes without it",
    );
  }
  res.sendDate = false;
  try {
    res.writeHead(status, reason, rawHeaders);
  } catch (error) {
    // Headers Node cannot write.
    const message = `the upstream's answer cannot be passed on (${(error as Error).message})`;
    refuse("unpassable", message, message);
    return;
  }
  answer.pipe(res);
}
