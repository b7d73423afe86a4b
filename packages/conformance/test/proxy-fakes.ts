// Stand-ins for the sockets around the observing proxy's stages (src/traffic/proxy/): streams with
// the few fields each stage reads, so a stage runs in-process, with no connection and no timer.

import type { ClientRequest, IncomingMessage, RequestOptions, ServerResponse } from "node:http";
import { Agent } from "node:http";
import { PassThrough, Writable } from "node:stream";
import { accept, type Ending, type Passage } from "../src/traffic/proxy/accept.js";
import type { Relay } from "../src/traffic/proxy/relay.js";

/** The client's request as the proxy's server gives it. */
export function clientRequest(
  head: { method?: string; url?: string; rawHeaders?: string[]; httpVersion?: string } = {},
): IncomingMessage {
  const rawHeaders = head.rawHeaders ?? [];
  const headers: Record<string, string> = {};
  for (let i = 0; i < rawHeaders.length; i += 2)
    headers[(rawHeaders[i] ?? "").toLowerCase()] = rawHeaders[i + 1] ?? "";
  return Object.assign(new PassThrough(), {
    method: head.method ?? "GET",
    url: head.url ?? "/",
    rawHeaders,
    headers,
    httpVersion: head.httpVersion ?? "1.1",
  }) as unknown as IncomingMessage;
}

/** The client's response: what the proxy wrote of its head, and its body. */
export class ClientResponse extends Writable {
  headersSent = false;
  sendDate = true;
  head: { status: number; reason?: string; headers: unknown } | undefined;
  readonly chunks: Buffer[] = [];
  writeHead(status: number, reason?: string | Record<string, string>, headers?: unknown): this {
    this.head = typeof reason === "string" ? { status, reason, headers } : { status, headers: reason };
    this.headersSent = true;
    return this;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.chunks.push(Buffer.from(chunk));
    done();
  }
  get text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

/** The upstream's answer, as the request to it gives it. */
export function upstreamAnswer(status: number | undefined, statusMessage: string, rawHeaders: string[]) {
  return Object.assign(new PassThrough(), {
    statusCode: status,
    statusMessage,
    rawHeaders,
  }) as unknown as IncomingMessage & PassThrough;
}

/** A request to the upstream: the headers set on it and the body written into it. */
export class UpstreamRequest extends Writable {
  readonly headers = new Map<string, string | string[]>();
  readonly chunks: Buffer[] = [];
  reusedSocket = false;
  constructor(readonly options: RequestOptions) {
    // As a ClientRequest: ending the body does not end the request, its answer is still to come.
    super({ autoDestroy: false });
  }
  setHeader(name: string, value: string | string[]): this {
    this.headers.set(name, value);
    return this;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.chunks.push(Buffer.from(chunk));
    done();
  }
}

/** A relay to `upstream` whose requests are UpstreamRequests, kept in `sent`; `told` has what it said. */
export function fakeRelay(upstream = "https://api.example.test/cloud/") {
  const sent: UpstreamRequest[] = [];
  const told: [string, string][] = [];
  const relay: Relay = {
    upstream: new URL(upstream),
    prefix: new URL(upstream).pathname.replace(/\/$/, ""),
    agent: new Agent({ keepAlive: true }),
    send: (options) => {
      const request = new UpstreamRequest(options);
      sent.push(request);
      return request as unknown as ClientRequest;
    },
    timeoutMs: 120_000,
    tell: (kind, message) => told.push([kind, message]),
  };
  return { relay, sent, told };
}

/** A passage accepted from fakes; `ended` resolves with what it was recorded as. */
export function acceptedPassage(head: Parameters<typeof clientRequest>[0] = {}) {
  const req = clientRequest(head);
  const res = new ClientResponse();
  const inFlight = new Set<Promise<void>>();
  const endings: { ending: Ending; durationMs: number }[] = [];
  let recorded: (ending: Ending) => void = () => {};
  const ended = new Promise<Ending>((done) => {
    recorded = done;
  });
  const passage: Passage = accept(
    req,
    res as unknown as ServerResponse,
    inFlight,
    (_, ending, durationMs) => {
      endings.push({ ending, durationMs });
      recorded(ending);
    },
  );
  return { req, res, inFlight, endings, ended, passage };
}
