// The observing proxy of `conformance observe`: a forwarding proxy on loopback that passes every
// request to the one upstream it was given and every answer back as it comes — status, header
// names as written, body bytes, chunk by chunk — never retried once answered, never altered, and hands a copy of
// each finished exchange to the judge. Only the hop-by-hop headers of each connection (RFC 9110
// §7.6.1) and Host (the upstream's) are its own; a request-target in absolute form is read for its
// path only, so the Authorization header goes to the upstream and nowhere else.

import {
  createServer,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { DEFAULTS as SIMULATOR_DEFAULTS } from "@platform-api/simulator";
import { connectHost } from "../http/connect-host.js";
import {
  flatHeaders,
  headersOfPairs,
  MAX_JUDGED_BODY_BYTES,
  type ObservedExchange,
} from "../shared/exchange.js";
import { keepAnswerOnWriteError } from "./early-answer.js";

/** What the judge reads of a body at most; a longer answer passes whole but is not judged (counted). */
export { MAX_JUDGED_BODY_BYTES };

/**
 * How long the proxy waits on a silent upstream (nothing received or sent on the connection)
 * before it answers the client with its own 502: an upstream that never answers, or sends only
 * `100 Continue`, does not hold the client until the client gives up.
 */
export const UPSTREAM_TIMEOUT_MS = 120_000;

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
  "host",
]);

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

export interface ObservingProxy {
  /** The proxy's own base URL, to give the client instead of the platform's. */
  url: string;
  /** Stops accepting, lets the exchanges in flight finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** Pairs of a raw header list, without the connection's own headers and those it names. */
function endToEnd(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === "connection")
      for (const token of (raw[i + 1] ?? "").split(",")) named.add(token.trim().toLowerCase());
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? "";
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    kept.push(name, raw[i + 1] ?? "");
  }
  return kept;
}

/** The path and query of a request-target, whatever its form ("/x?y", "http://host/x?y"). */
function pathOf(target: string): string {
  if (target.startsWith("/")) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return `/${target}`;
  }
}

/** Collects a copy of a stream's chunks up to a bound (the stream itself is not touched). */
function collector(limit: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  return {
    add(chunk: Buffer) {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    },
    bytes: () => (over ? undefined : Buffer.concat(chunks)),
    get seen() {
      return size > 0;
    },
  };
}

/** The body as text the judge reads: decoded from its content-coding, bounded; or why it cannot be. */
function decoded(
  bytes: Buffer | undefined,
  encoding: string | undefined,
): { body: string | undefined; problem?: string } {
  if (bytes === undefined) return { body: undefined };
  const coding = (encoding ?? "").trim().toLowerCase();
  const options = { maxOutputLength: MAX_JUDGED_BODY_BYTES };
  try {
    if (coding === "gzip" || coding === "x-gzip")
      return { body: gunzipSync(bytes, options).toString("utf8") };
    if (coding === "deflate") return { body: inflateSync(bytes, options).toString("utf8") };
    if (coding === "br") return { body: brotliDecompressSync(bytes, options).toString("utf8") };
  } catch (error) {
    // Larger decoded than the judge reads: passed, not judged (counted). Anything else: the body is
    // not what its Content-Encoding says, a finding of its own, its bytes the evidence.
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError)
      return { body: undefined };
    return {
      body: bytes.toString("utf8"),
      problem: `the body cannot be decoded as its Content-Encoding ${coding} says (${(error as Error).message})`,
    };
  }
  return { body: bytes.toString("utf8") };
}

/** The proxy's own 502 (`x-conformance-observe` says why), or a cut when an answer was begun. */
function proxyAnswer(res: ServerResponse, kind: string, message: string) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(502, { "content-type": "text/plain; charset=utf-8", "x-conformance-observe": kind });
  res.end(`conformance observe: ${message}\n`);
}

/** Characters a reason phrase may not hold (RFC 9112 §4: HTAB, SP, VCHAR, obs-text). */
const NOT_IN_REASON = /[^\t\x20-\x7e\x80-\xff]/g;

export function startProxy(options: ProxyOptions): Promise<ObservingProxy> {
  const upstream = new URL(options.upstream);
  const secure = upstream.protocol === "https:";
  const prefix = upstream.pathname.replace(/\/$/, "");
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const inFlight = new Set<Promise<void>>();
  const timeoutMs = options.upstreamTimeoutMs ?? UPSTREAM_TIMEOUT_MS;
  const problem = (kind: string, message: string) => {
    try {
      options.onProblem?.(kind, message);
    } catch {
      // Telling is best effort: it never costs the client its answer.
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const at = Date.now();
    const started = performance.now();
    const url = pathOf(req.url ?? "/");
    const requestRawHeaders = endToEnd(req.rawHeaders);
    const requestCopy = collector(MAX_JUDGED_BODY_BYTES);
    const responseCopy = collector(MAX_JUDGED_BODY_BYTES);
    let finished: () => void = () => {};
    const passing = new Promise<void>((done) => {
      finished = () => {
        inFlight.delete(passing);
        done();
      };
    });
    inFlight.add(passing);
    let reported = false;
    /** What in the upstream's answer breaks HTTP itself (the judge reports it with the evidence). */
    const invalid: string[] = [];
    const report = (status: number | null, statusText: string, rawHeaders: string[], error?: string) => {
      if (reported) return;
      reported = true;
      // Judged once the answer is on its way: the client never waits for the judge.
      const durationMs = performance.now() - started;
      setImmediate(() => pass(status, statusText, rawHeaders, durationMs, error));
    };
    const fail = (kind: string, message: string) => proxyAnswer(res, kind, message);
    const pass = (
      status: number | null,
      statusText: string,
      rawHeaders: string[],
      durationMs: number,
      error?: string,
    ) => {
      const headers = headersOfPairs(pairs(rawHeaders));
      const requestBytes = requestCopy.bytes();
      const answer =
        status === null ? { body: "" } : decoded(responseCopy.bytes(), headers["content-encoding"]);
      if (answer.problem) {
        invalid.push(answer.problem);
        problem("content-encoding", `the upstream sent ${answer.problem}; judged as a failure of the answer`);
      }
      try {
        options.onExchange({
          exchange: {
            method: req.method ?? "GET",
            url,
            requestHeaders: flatHeaders(req.headers),
            ...(requestCopy.seen && requestBytes ? { requestBody: requestBytes.toString("utf8") } : {}),
            status,
            responseHeaders: headers,
            body: answer.body,
            at,
            durationMs,
            ...(error ? { error } : {}),
            ...(invalid.length > 0 ? { invalid: [...invalid] } : {}),
          },
          httpVersion: `HTTP/${req.httpVersion}`,
          requestRawHeaders,
          requestBody: requestCopy.seen ? requestBytes?.toString("utf8") : undefined,
          statusText,
          responseRawHeaders: rawHeaders,
        });
      } catch (error) {
        problem("internal", `judging or recording an exchange failed: ${(error as Error).message}`);
      } finally {
        finished();
      }
    };

    // A request without a body may go to the upstream a second time, on a fresh connection, when
    // the kept-alive one it was written on had been closed by the upstream (Node's documented
    // keep-alive race, `reusedSocket`): the upstream never saw it, so nothing is retried that it
    // answered. Every other failure is the client's to see.
    const bodiless =
      req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined;
    let current: ReturnType<typeof send> | undefined;
    let responded = false;
    const open = (fresh: boolean) => {
      const forward = send({
        protocol: upstream.protocol,
        hostname: connectHost(upstream),
        port: upstream.port || undefined,
        method: req.method,
        path: `${prefix}${url}`,
        agent: fresh ? false : agent,
        // Silence on the connection for this long (nothing sent or received, a lone 100 Continue
        // included) ends the exchange: the client gets the proxy's 502, not a wait without end.
        timeout: timeoutMs,
      });
      current = forward;
      // An early answer (a large body refused before it was read) reaches the client: the rest of
      // the body is dropped, not written into the closed connection.
      forward.on("socket", (socket) =>
        keepAnswerOnWriteError(socket, () => {
          req.unpipe(forward);
          req.resume();
        }),
      );
      for (const [name, values] of groupedPairs(requestRawHeaders)) forward.setHeader(name, values);
      forward.setHeader("Host", upstream.host);
      forward.on("timeout", () =>
        forward.destroy(
          Object.assign(new Error(`the upstream was silent for ${timeoutMs / 1000} s`), {
            code: "ETIMEDOUT",
          }),
        ),
      );
      forward.on(
        "response",
        guard((answer: IncomingMessage) => {
          responded = true;
          const rawHeaders = endToEnd(answer.rawHeaders);
          const status = answer.statusCode ?? 0;
          const statusText = answer.statusMessage ?? "";
          answer.on("data", (chunk: Buffer) => responseCopy.add(chunk));
          answer.on("error", (error) => {
            res.destroy();
            report(null, "", [], `the answer broke off: ${error.message}`);
          });
          answer.on("end", () => report(status, statusText, rawHeaders));
          /** An answer that cannot be passed on: the client gets the proxy's 502, the answer is judged as it came. */
          const refuse = (kind: string, finding: string, told: string) => {
            invalid.push(finding);
            problem(kind, `${told}; the client got the proxy's 502`);
            fail("invalid-answer", told);
            answer.resume();
          };
          // Node writes any three-digit status; none below 100 (`000`) is a status at all.
          if (!(status >= 100 && status <= 999)) {
            const what = `status ${answer.statusCode === undefined ? "(none)" : String(status).padStart(3, "0")}, which is no HTTP status code`;
            refuse(
              "status",
              `the upstream answered ${what}`,
              `the upstream ${upstream.origin} answered ${what}`,
            );
            return;
          }
          // The reason phrase is advisory (RFC 9112 §4): one that holds characters no server may
          // send passes without them.
          const reason = statusText.replace(NOT_IN_REASON, "");
          if (reason !== statusText) {
            invalid.push("the reason phrase of the status line holds a control character");
            problem(
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
        }),
      );
      forward.on("error", (error: NodeJS.ErrnoException) => {
        if (!fresh && bodiless && forward.reusedSocket && error.code === "ECONNRESET" && !res.headersSent)
          return open(true).end();
        // The upstream answered and then stopped reading the request's body (an early refusal of
        // a large body): its answer goes on to the client; the rest of the body is not sent.
        if (responded) {
          req.unpipe();
          req.resume();
          return;
        }
        // No answer came (an early one is read even after a failed write: early-answer.ts).
        if (error.code === "ETIMEDOUT")
          problem("timeout", `${error.message}: the client got the proxy's 502 (UPSTREAM_TIMEOUT_MS)`);
        fail("no-answer", `no answer from the upstream ${upstream.origin} (${error.message})`);
        report(null, "", [], error.message);
      });
      return forward;
    };
    // The client gave up before the answer was whole: the upstream request is dropped too.
    res.on("close", () => {
      if (!res.writableFinished) {
        current?.destroy();
        report(null, "", [], "the client closed the connection before the answer was whole");
      }
    });
    res.on("error", () => {}); // the client gone: "close" above says what there is to say
    req.on("error", () => {});
    req.on("data", (chunk: Buffer) => requestCopy.add(chunk));
    req.pipe(open(false));
  };
  /** A callback that cannot throw past the proxy: what throws is said and the client answered. */
  function guard<A extends unknown[]>(fn: (...args: A) => void) {
    return (...args: A) => {
      try {
        fn(...args);
      } catch (error) {
        problem("internal", `the proxy failed on an exchange: ${(error as Error).stack ?? error}`);
      }
    };
  }
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (error) {
      problem("internal", `the proxy failed on an exchange: ${(error as Error).stack ?? error}`);
      proxyAnswer(res, "internal", "the proxy failed on this exchange");
    }
  });

  // A client's idle connection stays open as long as the simulator keeps its own: Node's 5 s is
  // within a second or two of what clients keep (undici: the Keep-Alive hint less its threshold),
  // and on a loaded machine the proxy closed sockets clients were already reusing, a failure the
  // platform never made. Closing the proxy still ends idle connections at once.
  server.keepAliveTimeout = SIMULATOR_DEFAULTS.keepAliveTimeoutSeconds * 1000;

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(":") ? `[${options.host}]` : options.host;
      resolve({
        url: `http://${host}:${port}`,
        async close(graceMs = 5000) {
          const closed = new Promise<void>((done) => server.close(() => done()));
          server.closeIdleConnections();
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            Promise.all([...inFlight]),
            new Promise((done) => {
              timer = setTimeout(done, graceMs);
            }),
          ]);
          clearTimeout(timer);
          server.closeAllConnections();
          await closed;
          agent.destroy();
        },
      });
    });
  });
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i] ?? "", raw[i + 1] ?? ""]);
  return out;
}

/** Header pairs grouped by name (as first written), repeated values kept in order. */
function groupedPairs(raw: string[]): [string, string[]][] {
  const groups = new Map<string, [string, string[]]>();
  for (const [name, value] of pairs(raw)) {
    const group = groups.get(name.toLowerCase());
    if (group) group[1].push(value);
    else groups.set(name.toLowerCase(), [name, [value]]);
  }
  return [...groups.values()];
}
