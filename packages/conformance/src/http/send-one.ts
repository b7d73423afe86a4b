// One request sent within its bounds: a silence longer than the timeout, or an exchange longer than
// its deadline (headers and body), ends it; a request waiting for its answer is named after
// NOTICE_AFTER_MS; its answer is read within the byte bound (read-answer.ts).

import { type ClientRequest, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { Request } from "../facts/api.js";
import { flatHeaders } from "../shared/exchange.js";
import { NOTICE_AFTER_MS } from "./bounds.js";
import { connectHost } from "./connect-host.js";
import type { Layer } from "./layer.js";
import { readAnswer } from "./read-answer.js";
import { prepared } from "./request.js";
import { seconds } from "./seconds.js";

/** One answer as it came: what the exchange records, before anything reads it. */
export interface Raw {
  /** The request body as sent, undefined without one. */
  requestBody: string | undefined;
  status: number;
  requestHeaders: Record<string, string>;
  responseHeaders: Record<string, string | undefined>;
  text: string;
}

/** A kept-alive connection the server had closed when the request was written on it. */
export class StaleConnection extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

/** Sends `call` to `url` once; rejects with a TooLarge, a StaleConnection or the request's error. */
export function once(layer: Layer, call: Request, url: string, stalled?: () => void): Promise<Raw> {
  const { options, base } = layer;
  if (call.auth === "reseller" && !options.resellerApiKey) throw new Error("no reseller API key was given");
  const { headers, payload } = prepared(call, options);
  const send = layer.secure ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        protocol: base.protocol,
        hostname: connectHost(base),
        port: base.port || undefined,
        method: call.method,
        path: url,
        headers,
        agent: layer.agent,
        timeout: layer.timeoutMs,
      },
      (res) =>
        readAnswer(res, layer.maxBodyBytes, {
          cut: (cut) => {
            reject(cut);
            req.destroy(cut);
          },
          failed: reject,
          whole: (text) =>
            resolve({
              requestBody: payload?.toString("utf8"),
              status: res.statusCode ?? 0,
              requestHeaders: headers,
              responseHeaders: flatHeaders(res.headers),
              text,
            }),
        }),
    );
    bound(req, layer, reject, stalled);
    req.end(payload);
  });
}

/** Ends `req` on its timeout and deadline, names it after NOTICE_AFTER_MS, and rejects with its error. */
function bound(req: ClientRequest, layer: Layer, reject: (error: Error) => void, stalled?: () => void) {
  const { timeoutMs, deadlineMs } = layer;
  // From the send until the answer's status line: a request that waits that long is named.
  const notice = stalled === undefined ? undefined : setTimeout(stalled, NOTICE_AFTER_MS);
  const answered = () => clearTimeout(notice);
  req.once("response", answered);
  req.once("close", answered);
  req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
  const deadline = setTimeout(
    () =>
      req.destroy(
        new Error(`the exchange passed its deadline of ${seconds(deadlineMs)} s (headers and body)`),
      ),
    deadlineMs,
  );
  req.once("close", () => clearTimeout(deadline));
  req.on("error", (error: NodeJS.ErrnoException) => {
    answered();
    clearTimeout(deadline);
    reject(req.reusedSocket && error.code === "ECONNRESET" ? new StaleConnection(error) : error);
  });
}

/**
 * One exchange, sent again once on a fresh connection when a kept-alive one turned out closed by
 * the server as the request left (Node's documented keep-alive race, `request.reusedSocket`):
 * the server never saw it, so it is not the target's answer, and a request without side effects
 * may go again.
 */
export async function onceFresh(
  layer: Layer,
  call: Request,
  url: string,
  stalled?: () => void,
): Promise<Raw> {
  try {
    return await once(layer, call, url, stalled);
  } catch (error) {
    if (!(error instanceof StaleConnection) || call.method === "POST") throw error;
    return once(layer, call, url, stalled);
  }
}
