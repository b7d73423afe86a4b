// The suite's HTTP layer: node:http(s) rather than fetch, because fetch lower-cases header names
// and the auth scenarios must send `AUTHORIZATION` and `authorization` exactly as written. Every
// exchange is recorded as evidence (method, path, status, excerpts of both bodies, the headers with
// every credential's value hidden: src/http/shown-headers.ts).
// An answer's text is redacted of both keys as it arrives, before anything cuts it: a key a
// target echoes back that straddled a cut would otherwise survive as a piece no redactor knows.

import type { Call, MethodOf, OperationAt, Path, Request } from "../facts/api.js";
import type { Answer } from "./answer.js";
import { layerOf } from "./layer.js";
import type { HttpOptions } from "./options.js";
import { sendCall } from "./send.js";
import { urlOf } from "./url.js";

export { retryAfterMs } from "../facts/rate.js";
export type { Wait } from "../shared/activity.js";
export type { Answer, Answered } from "./answer.js";
export { excerptOf } from "./answer.js";
export {
  DEADLINE_MS,
  MAX_ANSWER_BYTES,
  NOTICE_AFTER_MS,
  RETRIES,
  RETRY_PAUSE_MS,
  SERVER_ERROR_PAUSE_MS,
  TIMEOUT_MS,
} from "./bounds.js";
export { CutAnswerError, cutMessage, NoAnswerError } from "./errors.js";
export { evidenceOf } from "./evidence.js";
export type { HttpOptions } from "./options.js";
export type { KeyVariables } from "./request.js";
export { curlOfExchange, resendOf } from "./resends.js";
export { sleep } from "./retries.js";
export { type Stall, stallMessage } from "./stall.js";

export interface Http {
  /** A call typed by its path and method: params, query and body are the operation's. */
  call<P extends Path, M extends MethodOf<P>>(call: Call<P, M>): Promise<Answer<OperationAt<P, M>>>;
  /**
   * A call of an operation picked from the spec model at run time. `Op` names its generated type
   * when the caller knows which operation the model picked (e.g. the task poll is `getTask`).
   */
  send<Op = unknown>(request: Request): Promise<Answer<Op>>;
  /** The URL path and query a call would use (for dry runs and messages). */
  urlOf(call: Pick<Request, "path" | "params" | "query" | "rawQuery">): string;
}

/**
 * An HTTP layer for one target and its keys: a call is paced, sent within its bounds and again as
 * the seed advises (src/http/send.ts), and leaves its exchange and evidence behind.
 */
export function createHttp(options: HttpOptions): Http {
  const layer = layerOf(options);
  const send = <Op>(call: Request): Promise<Answer<Op>> => sendCall<Op>(layer, call, send);
  return {
    // A typed call is a request whose types were checked at compile time.
    call: (call) => send(call as Request),
    send,
    urlOf: (call) => urlOf(layer.prefix, call),
  };
}
