// The stage that sends the client's request on: to the one upstream, under its base path, with the
// request's end-to-end headers as written and the upstream's Host. A silent upstream, or one that
// does not answer at all, gets the client the proxy's own 502 (own-answer.ts).

import type { ClientRequest, IncomingMessage } from "node:http";
import { connectHost } from "../../http/connect-host.js";
import { keepAnswerOnWriteError } from "../early-answer.js";
import type { Passage } from "./accept.js";
import { groupedPairs } from "./headers.js";
import { proxyAnswer } from "./own-answer.js";
import type { Relay } from "./relay.js";

/**
 * Opens the request to the upstream (`fresh`: on a connection of its own, not a kept-alive one);
 * `onAnswer` is given the upstream's answer. The caller writes the body into what is returned.
 */
export function forward(
  passage: Passage,
  relay: Relay,
  onAnswer: (answer: IncomingMessage) => void,
  fresh = false,
): ClientRequest {
  const { req } = passage;
  const { upstream, timeoutMs } = relay;
  const request = relay.send({
    protocol: upstream.protocol,
    hostname: connectHost(upstream),
    port: upstream.port || undefined,
    method: req.method,
    path: `${relay.prefix}${passage.url}`,
    agent: fresh ? false : relay.agent,
    // Silence on the connection for this long (nothing sent or received, a lone 100 Continue
    // included) ends the exchange: the client gets the proxy's 502, not a wait without end.
    timeout: timeoutMs,
  });
  passage.current = request;
  // An early answer (a large body refused before it was read) reaches the client: the rest of
  // the body is dropped, not written into the closed connection.
  request.on("socket", (socket) =>
    keepAnswerOnWriteError(socket, () => {
      req.unpipe(request);
      req.resume();
    }),
  );
  for (const [name, values] of groupedPairs(passage.requestRawHeaders)) request.setHeader(name, values);
  request.setHeader("Host", upstream.host);
  request.on("timeout", () =>
    request.destroy(
      Object.assign(new Error(`the upstream was silent for ${timeoutMs / 1000} s`), { code: "ETIMEDOUT" }),
    ),
  );
  request.on("response", onAnswer);
  request.on("error", (error: NodeJS.ErrnoException) => {
    // A request without a body may go to the upstream a second time, on a fresh connection, when
    // the kept-alive one it was written on had been closed by the upstream (Node's documented
    // keep-alive race, `reusedSocket`): the upstream never saw it, so nothing is retried that it
    // answered. Every other failure is the client's to see.
    if (
      !fresh &&
      passage.bodiless &&
      request.reusedSocket &&
      error.code === "ECONNRESET" &&
      !passage.res.headersSent
    )
      return forward(passage, relay, onAnswer, true).end();
    failed(passage, relay, error);
  });
  return request;
}

/** The upstream request failed: an answer begun goes on, and no answer is the proxy's 502. */
function failed(passage: Passage, relay: Relay, error: NodeJS.ErrnoException): void {
  // The upstream answered and then stopped reading the request's body (an early refusal of
  // a large body): its answer goes on to the client; the rest of the body is not sent.
  if (passage.responded) {
    passage.req.unpipe();
    passage.req.resume();
    return;
  }
  // No answer came (an early one is read even after a failed write: early-answer.ts).
  if (error.code === "ETIMEDOUT")
    relay.tell("timeout", `${error.message}: the client got the proxy's 502 (UPSTREAM_TIMEOUT_MS)`);
  proxyAnswer(
    passage.res,
    "no-answer",
    `no answer from the upstream ${relay.upstream.origin} (${error.message})`,
  );
  passage.end({ status: null, statusText: "", rawHeaders: [], error: error.message });
}
