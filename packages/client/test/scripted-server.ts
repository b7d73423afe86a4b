// A loopback HTTP server whose answers the test scripts request by request, and which records
// every request it sees (method, URL, headers, body, arrival time) for assertions on counts and order.
// It closes itself, open sockets included, when its test (or suite) ends: a held or stalled answer
// never outlives the test that scripted it, and no test file repeats the teardown.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, onTestFinished } from "vitest";
import { createArrivals } from "./arrivals.js";

export interface SeenRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Reply =
  | {
      status?: number;
      /** sent as JSON */
      body?: unknown;
      /** sent as it is, as text/plain unless `headers` name another content type */
      text?: string;
      headers?: Record<string, string>;
      delayMs?: number;
    }
  /** the status, headers and the start of a body, then nothing: the answer stays open until the server closes */
  | { stall: string; status?: number; headers?: Record<string, string> }
  /**
   * A chunked body that never ends: `chunk` every `everyMs` (0: as fast as the socket takes it),
   * until the client goes away or DRIP_MAX_CHUNKS have been sent.
   */
  | { drip: string; everyMs: number; status?: number; headers?: Record<string, string> }
  /** these bytes (latin1) as the whole answer, status line included, then the connection ends */
  | { raw: string }
  /** destroy the socket without an answer */
  | "reset"
  /** never answer: the request stays open until the server closes */
  | "hold";

/** Bound of a dripping answer, so that a client that never stops reading still ends the test. */
export const DRIP_MAX_CHUNKS = 20_000;

export type Script = (request: SeenRequest, index: number) => Reply | Promise<Reply>;

export interface ScriptedServer {
  /** http://127.0.0.1:<port>, without a trailing slash */
  url: string;
  /** every request received so far, in order of arrival */
  requests: SeenRequest[];
  /** bytes of body written per request index, for the hostile answers (stall, drip) */
  written: number[];
  /** Resolves once `count` requests have arrived: a wait driven by arrivals, not by a guess at time. */
  untilRequests: (count: number) => Promise<void>;
  /** Closes the server and destroys its open sockets; the same promise on every call. */
  close: () => Promise<void>;
}

/** A server for the running test, closed (its sockets too) when the test finishes, passed or not. */
export function startScriptedServer(script: Script): Promise<ScriptedServer> {
  const started = listen(script);
  // Taken before the server listens: called outside a test, this throws at the call, before a
  // server exists that nothing would close.
  onTestFinished(async () => (await started).close());
  return started;
}

/**
 * One server for every test of the file or describe block this is called in: listening before the
 * first test, closed after the last. Its fields are read inside the tests, once it listens.
 */
export function scriptedServerForSuite(script: Script): ScriptedServer {
  let server: ScriptedServer | undefined;
  beforeAll(async () => {
    server = await listen(script);
  });
  afterAll(() => server?.close());
  const listening = () => {
    if (!server)
      throw new Error("the suite's scripted server listens from beforeAll on: read it inside a test");
    return server;
  };
  return {
    get url() {
      return listening().url;
    },
    get requests() {
      return listening().requests;
    },
    get written() {
      return listening().written;
    },
    untilRequests: (count) => listening().untilRequests(count),
    close: () => listening().close(),
  };
}

async function listen(script: Script): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const written: number[] = [];
  const arrivals = createArrivals();
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const seen: SeenRequest = {
        method: req.method ?? "",
        url: req.url ?? "",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
        at: performance.now(),
      };
      requests.push(seen);
      arrivals.arrived();
      const index = requests.length - 1;
      answer(req, res, await script(seen, index), index, written);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  // Once: a test may close early to read what was written, and its end closes again.
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    written,
    untilRequests: arrivals.until,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closed;
    },
  };
}

/** Sends `reply` to the request at `index`, counting in `written` the body bytes of a hostile answer. */
function answer(req: IncomingMessage, res: ServerResponse, reply: Reply, index: number, written: number[]) {
  if (reply === "reset") {
    req.socket.destroy();
    return;
  }
  if (reply === "hold") return;
  if ("raw" in reply) {
    req.socket.end(Buffer.from(reply.raw, "latin1"));
    return;
  }
  if ("stall" in reply) {
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.write(reply.stall);
    written[index] = Buffer.byteLength(reply.stall);
    return;
  }
  if ("drip" in reply) {
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    let sent = 0;
    const drip = () => {
      if (res.destroyed || sent >= DRIP_MAX_CHUNKS) return;
      sent++;
      written[index] = (written[index] ?? 0) + Buffer.byteLength(reply.drip);
      // The next chunk once this one is taken: a client that stops reading stops the drip.
      res.write(reply.drip, () => setTimeout(drip, reply.everyMs).unref());
    };
    drip();
    return;
  }
  const send = () => {
    if (res.destroyed) return;
    const text = reply.text ?? (reply.body === undefined ? undefined : JSON.stringify(reply.body));
    const type = reply.text !== undefined ? "text/plain" : "application/json";
    res.writeHead(reply.status ?? 200, {
      ...(text !== undefined ? { "content-type": type } : {}),
      ...reply.headers,
    });
    res.end(text);
  };
  if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
  else send();
}

/** Test token with a `$`, as real tokens have. */
export const KEY = "2971$e0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7c8d9";

/** A list of `count` regions-like items, served with offset/limit as the platform does. */
export function offsetList(count: number, makeItem: (i: number) => unknown = (i) => ({ id: i + 1 })) {
  const items = Array.from({ length: count }, (_, i) => makeItem(i));
  return (request: SeenRequest): Reply => {
    // The client always sends a limit; without one, the whole rest of the list.
    const limit = Number(request.query.get("limit") ?? count);
    const offset = Number(request.query.get("offset") ?? 0);
    return { body: { count, results: items.slice(offset, offset + limit) } };
  };
}
