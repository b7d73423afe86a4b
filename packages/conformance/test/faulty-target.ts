// A deliberately faulty platform for the teeth tests: the real simulator behind a thin HTTP proxy
// on loopback that rewrites requests or answers to plant exactly one defect. It stands for a
// platform, not a simulator: it never says it is one (SIMULATOR_HEADER is dropped), so a run knows
// only what its flags tell it.

import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import {
  DEFAULTS,
  SIMULATOR_HEADER,
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from "@platform-api/simulator";

export interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Header names exactly as the client sent them. */
  rawHeaders: string[];
  headers: Record<string, string>;
  /** The JSON body, parsed; a defect may change it in place. */
  body: unknown;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  /** A body sent as this text, with `headers` as they are (a defect's own content type), not as JSON. */
  text?: string;
  /** No answer at all: the connection is dropped (status, headers and body are not sent). */
  drop?: boolean;
}

export interface Defect {
  name: string;
  /** Scenario ids this defect must fail, and no other. */
  fails: string[];
  /**
   * The refusal rules and stories (src/rules `refuses`, a story's `refuses: true`) whose refusal
   * this defect turns into a 2xx: each refusal has at least one (test/refusal-defects.test.ts).
   */
  accepts?: string[];
  /**
   * Results a correct variant (no `fails`) may warn on without failing: a `should` it meets only
   * under a reading the spec infers. Every other result passes or skips.
   */
  warns?: string[];
  /** Results a correct variant must skip, each with a reason that matches. */
  skips?: Record<string, RegExp>;
  /**
   * The operations whose exchanges it changes (or "(authorization)"): live defects that touch
   * nothing in common share one live run (test/teeth.test.ts). Absent: a run of its own.
   */
  touches?: string[];
  /**
   * It leaves a discovery step (its `discovery.*` result) without a finding, so what needs that
   * finding skips: it shares a live run only with defects that do the same to another step.
   */
  breaksDiscovery?: true;
  /**
   * Shown only by a burst faster than twice the platform's rate: judged from a burst built by hand
   * (test/teeth.test.ts), since how fast a live one goes is the machine's.
   */
  burst?: boolean;
  /** Why only a live run can show it, though it changes answers alone (judged from no recording). */
  liveOnly?: string;
  /** Flags of the run beyond the target's (e.g. none of the hints a live user may lack). */
  flags?: { gpuFlavor?: boolean; strict?: boolean };
  simulator?: SimulatorOptions;
  /** Changes the request before it reaches the simulator, or answers it itself. */
  request?(exchange: Exchange, sim: Simulator): Answer | undefined | Promise<Answer | undefined>;
  /** Changes the simulator's answer. */
  response?(exchange: Exchange, answer: Answer, sim: Simulator): void;
}

/** Several defects planted at once: every request and answer goes through each of them in turn. */
export function together(defects: Defect[]): Defect {
  if (defects.length === 1) return defects[0] as Defect;
  return {
    name: defects.map((d) => d.name).join(" + "),
    fails: defects.flatMap((d) => d.fails),
    request: async (exchange, sim) => {
      for (const defect of defects) {
        const answer = await defect.request?.(exchange, sim);
        if (answer) return answer;
      }
      return undefined;
    },
    response: (exchange, answer, sim) => {
      for (const defect of defects) defect.response?.(exchange, answer, sim);
    },
  };
}
export interface FaultyTarget {
  url: string;
  sim: Simulator;
  close(): Promise<void>;
}

const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "host"]);

/**
 * How long the proxy waits for the simulator: a bound for a hang, not an estimate. An answer takes a
 * millisecond alone, but a burst of 150 through observe, this proxy and the simulator, all in one
 * starved test process, left one waiting over 10 s (the old bound): its 502 read as the platform's
 * deviation. Below the runs' own bounds (RUN_BOUND_MS, testTimeout: 300 s).
 */
const UPSTREAM_TIMEOUT_MS = 120_000;

function readBody(message: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on("data", (c: Buffer) => chunks.push(c));
    message.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    message.on("error", reject);
  });
}

interface Upstream {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** One request to the simulator over a kept-alive connection (plain node:http: it costs a fraction of fetch). */
function forward(
  agent: Agent,
  sim: Simulator,
  exchange: Exchange,
  payload: string | undefined,
): Promise<Upstream> {
  const search = exchange.query.toString();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${sim.url}${exchange.path}${search ? `?${search}` : ""}`,
      {
        method: exchange.method,
        headers: {
          ...exchange.headers,
          ...(payload === undefined ? {} : { "content-length": String(Buffer.byteLength(payload)) }),
        },
        agent,
        timeout: UPSTREAM_TIMEOUT_MS,
      },
      (res) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined && !HOP.has(name) && name !== SIMULATOR_HEADER)
            headers[name] = Array.isArray(value) ? value.join(", ") : value;
        readBody(res).then((text) => resolve({ status: res.statusCode ?? 0, headers, text }), reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${UPSTREAM_TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end(payload);
  });
}

/**
 * The longest a target lives: far beyond any run (about 6 s alone, 20 s on a loaded machine), so
 * that it only ever ends a target whose test hung or forgot to close it.
 */
const LIFETIME_MS = 600_000;

export async function startFaultyTarget(defect: Defect | undefined): Promise<FaultyTarget> {
  const sim = await startSimulator({ port: 0, timeScale: 0.01, env: {}, ...defect?.simulator });
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", sim.url);
      const text = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && !HOP.has(name)) headers[name] = value;
      const exchange: Exchange = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        rawHeaders: req.rawHeaders.filter((_, i) => i % 2 === 0),
        headers,
        body: text === "" ? undefined : JSON.parse(text),
      };
      let answer = await defect?.request?.(exchange, sim);
      if (answer?.drop) {
        req.socket.destroy();
        return;
      }
      let out: string;
      if (answer) out = answer.text ?? (answer.body === undefined ? "" : JSON.stringify(answer.body));
      else {
        // What the client sent goes on as sent, unless a request hook may have changed it.
        const payload = !defect?.request
          ? text || undefined
          : exchange.body === undefined
            ? undefined
            : JSON.stringify(exchange.body);
        const upstream = await forward(agent, sim, exchange, payload);
        if (!defect?.response) {
          // Nothing to change in the answer: it goes back byte for byte.
          res.writeHead(upstream.status, {
            ...upstream.headers,
            "content-length": Buffer.byteLength(upstream.text),
          });
          res.end(upstream.text);
          return;
        }
        answer = {
          status: upstream.status,
          headers: upstream.headers,
          body: upstream.text === "" ? undefined : JSON.parse(upstream.text),
        };
        defect.response(exchange, answer, sim);
        out = answer.text ?? (answer.body === undefined ? "" : JSON.stringify(answer.body));
      }
      res.writeHead(answer.status, {
        ...answer.headers,
        ...(out && answer.text === undefined ? { "content-type": "application/json; charset=utf-8" } : {}),
        "content-length": Buffer.byteLength(out),
      });
      res.end(out);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`faulty-target proxy error: ${(error as Error).message}`);
    }
  });
  // As the simulator behind it and observe's proxy (src/traffic/proxy.ts) keep them: Node's 5 s
  // closed sockets that clients (Respect's undici) were already reusing on a loaded machine.
  server.keepAliveTimeout = DEFAULTS.keepAliveTimeoutSeconds * 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      clearTimeout(lifetime);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      await sim.close();
    })();
    return closing;
  };
  const lifetime = setTimeout(() => void close(), LIFETIME_MS);
  lifetime.unref();
  return { url: `http://127.0.0.1:${port}`, sim, close };
}
