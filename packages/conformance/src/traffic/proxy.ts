// The observing proxy of `conformance observe`: a forwarding proxy on loopback that passes every
// request to the one upstream it was given and every answer back as it comes — status, header
// names as written, body bytes, chunk by chunk — never retried once answered, never altered, and hands a copy of
// each finished exchange to the judge. Only the hop-by-hop headers of each connection (RFC 9110
// §7.6.1) and Host (the upstream's) are its own; a request-target in absolute form is read for its
// path only, so the Authorization header goes to the upstream and nowhere else.

import { createServer } from "node:http";
import { DEFAULTS as SIMULATOR_DEFAULTS } from "@platform-api/simulator";
import { MAX_JUDGED_BODY_BYTES } from "../shared/exchange.js";
import { accept } from "./proxy/accept.js";
import { passAnswer } from "./proxy/answer.js";
import { forward } from "./proxy/forward.js";
import { listen, type ObservingProxy } from "./proxy/listen.js";
import { proxyAnswer } from "./proxy/own-answer.js";
import { guard, tellerOf } from "./proxy/problems.js";
import { type PassedExchange, record } from "./proxy/record.js";
import { relayOf } from "./proxy/relay.js";

export type { ObservingProxy } from "./proxy/listen.js";
export type { PassedExchange } from "./proxy/record.js";

/** What the judge reads of a body at most; a longer answer passes whole but is not judged (counted). */
export { MAX_JUDGED_BODY_BYTES };

/**
 * How long the proxy waits on a silent upstream (nothing received or sent on the connection)
 * before it answers the client with its own 502: an upstream that never answers, or sends only
 * `100 Continue`, does not hold the client until the client gives up.
 */
export const UPSTREAM_TIMEOUT_MS = 120_000;

export interface ProxyOptions {
  /** Base URL of the platform (or the simulator): every request goes there and nowhere else. */
  upstream: string;
  host: string;
  port: number;
  /** Told of every exchange once its answer has been passed on whole (or failed). */
  onExchange(passed: PassedExchange): void;
  /**
   * Told of what the upstream (or the proxy itself) did that the client could not be given as it
   * came: `kind` names it ("status", "reason-phrase", "timeout", "internal", …), for saying each once.
   */
  onProblem?(kind: string, message: string): void;
  /** How long a silent upstream is waited on (default UPSTREAM_TIMEOUT_MS). */
  upstreamTimeoutMs?: number;
}

/**
 * The proxy: each exchange passes through its stages — accepted (proxy/accept.ts), forwarded to the
 * upstream (forward.ts), its answer passed back (answer.ts), recorded for the judge (record.ts).
 */
export function startProxy(options: ProxyOptions): Promise<ObservingProxy> {
  const tell = tellerOf(options.onProblem);
  const relay = relayOf(options.upstream, options.upstreamTimeoutMs ?? UPSTREAM_TIMEOUT_MS, tell);
  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    try {
      const passage = accept(req, res, inFlight, (passed, ending, durationMs) =>
        record(passed, ending, durationMs, options.onExchange, tell),
      );
      req.pipe(
        forward(
          passage,
          relay,
          guard(tell, (answer) => passAnswer(passage, answer, relay)),
        ),
      );
    } catch (error) {
      tell("internal", `the proxy failed on an exchange: ${(error as Error).stack ?? error}`);
      proxyAnswer(res, "internal", "the proxy failed on this exchange");
    }
  });

  // A client's idle connection stays open as long as the simulator keeps its own: Node's 5 s is
  // within a second or two of what clients keep (undici: the Keep-Alive hint less its threshold),
  // and on a loaded machine the proxy closed sockets clients were already reusing, a failure the
  // platform never made. Closing the proxy still ends idle connections at once.
  server.keepAliveTimeout = SIMULATOR_DEFAULTS.keepAliveTimeoutSeconds * 1000;

  return listen(server, options.host, options.port, inFlight, relay.agent);
}
