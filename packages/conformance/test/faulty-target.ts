// A deliberately faulty platform for the teeth tests: the real simulator behind a thin HTTP proxy
// on loopback that rewrites requests or answers to plant exactly one defect.

import { createServer, type IncomingMessage, type Server } from "node:http";
import { type Simulator, type SimulatorOptions, startSimulator } from "@platform-api/simulator";

export interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Header names exactly as the client sent them. */
  rawHeaders: string[];
  headers: Record<string, string>;
  body: any;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: any;
}

export interface Defect {
  name: string;
  /** Scenario ids this defect must fail, and no other. */
  fails: string[];
  simulator?: SimulatorOptions;
  /** Changes the request before it reaches the simulator, or answers it itself. */
  request?(exchange: Exchange, sim: Simulator): Answer | undefined | Promise<Answer | undefined>;
  /** Changes the simulator's answer. */
  response?(exchange: Exchange, answer: Answer, sim: Simulator): void;
}

export interface FaultyTarget {
  url: string;
  sim: Simulator;
  close(): Promise<void>;
}

const HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "host"]);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startFaultyTarget(defect: Defect | undefined): Promise<FaultyTarget> {
  const sim = await startSimulator({ port: 0, timeScale: 0.01, env: {}, ...defect?.simulator });
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
      if (!answer) {
        const search = exchange.query.toString();
        const upstream = await fetch(`${sim.url}${exchange.path}${search ? `?${search}` : ""}`, {
          method: exchange.method,
          headers: exchange.headers,
          body: exchange.body === undefined ? undefined : JSON.stringify(exchange.body),
          signal: AbortSignal.timeout(10_000),
        });
        const upstreamText = await upstream.text();
        const upstreamHeaders: Record<string, string> = {};
        upstream.headers.forEach((value, name) => {
          if (!HOP.has(name)) upstreamHeaders[name] = value;
        });
        answer = {
          status: upstream.status,
          headers: upstreamHeaders,
          body: upstreamText === "" ? undefined : JSON.parse(upstreamText),
        };
        defect?.response?.(exchange, answer, sim);
      }
      const out = answer.body === undefined ? "" : JSON.stringify(answer.body);
      res.writeHead(answer.status, {
        ...answer.headers,
        ...(out ? { "content-type": "application/json; charset=utf-8" } : {}),
        "content-length": Buffer.byteLength(out),
      });
      res.end(out);
    } catch (error) {
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`faulty-target proxy error: ${(error as Error).message}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    sim,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await sim.close();
    },
  };
}
