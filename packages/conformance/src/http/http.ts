// The suite's HTTP layer: node:http(s) rather than fetch, because fetch lower-cases header names
// and the auth scenarios must send `AUTHORIZATION` and `authorization` exactly as written. Every
// exchange is recorded as evidence (method, path, status, excerpts of both bodies, the headers with
// every credential's value hidden: src/http/shown-headers.ts).
// An answer's text is redacted of both keys as it arrives, before anything cuts it: a key a
// target echoes back that straddled a cut would otherwise survive as a piece no redactor knows.

import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { threadId } from "node:worker_threads";
import { findOperation } from "@platform-api/spec";
import type { Wait } from "../shared/activity.js";
import { BoundedMap } from "../shared/bounded-map.js";
import type { Evidence } from "../shared/context.js";
import { curlCommand, headerWord } from "../shared/curl.js";
import { flatHeaders, MAX_JUDGED_BODY_BYTES, type ObservedExchange } from "../shared/exchange.js";
import type { Pacer } from "../shared/pacer.js";
import { createRedactor } from "../shared/redact.js";
import { type Call, type MethodOf, OffSpec, type OperationAt, type Path, type Request } from "../spec/api.js";
import { requestRate, retryAfterMs } from "../spec/rate.js";
import { specModel } from "../spec/spec.js";
import { type Answer, decodeExchange, excerptOf, pathOf, requestEvidence } from "./answer.js";
import { connectHost } from "./connect-host.js";
import { shownHeaders } from "./shown-headers.js";

export { retryAfterMs } from "../spec/rate.js";
export type { Answer, Answered } from "./answer.js";
export { excerptOf };

/**
 * The run's number of the last exchange (Evidence.seq): one numbering for every HTTP layer of the
 * thread, apart from other threads' (the discovery's in the main thread, the scenarios' in their
 * worker), so an exchange's number names it across the run.
 */
let nextSeq = threadId * 1_000_000_000;
/** The evidence of each answer handed out, and of each error thrown for an exchange without one. */
const evidenceBy = new WeakMap<object, Evidence>();
/**
 * How to send each recent exchange's request again, by its seq: a failure on a 5xx or on no answer
 * is confirmed before it is called one. Bounded: a failure is confirmed soon after it happens (a
 * rule's result at the end of its file), never thousands of exchanges later.
 */
const resends = new BoundedMap<
  number,
  { again: () => Promise<Answer>; curl: (variables: KeyVariables) => string }
>(20_000);

/** The environment variables the keys came from: what a curl command names instead of them. */
export interface KeyVariables {
  apiKey: string;
  resellerApiKey: string;
}

/** The evidence of an answer this layer gave, or of the exchange a NoAnswerError (or CutAnswerError) is about. */
export const evidenceOf = (of: object): Evidence | undefined => evidenceBy.get(of);

/** Sends an exchange's request again as it was sent (its HTTP layer, key, pacing and retries). */
export const resendOf = (seq: number | undefined): (() => Promise<Answer>) | undefined =>
  seq === undefined ? undefined : resends.get(seq)?.again;

/** An exchange's request as a curl command, each key as "$VARIABLE" (undefined: not one this thread sent). */
export const curlOfExchange = (seq: number | undefined, variables: KeyVariables): string | undefined =>
  seq === undefined ? undefined : resends.get(seq)?.curl(variables);

export class NoAnswerError extends Error {
  constructor(
    readonly call: string,
    override readonly cause: unknown,
    redact: (text: string) => string = (text) => text,
    /** How many times the request was sent, and how long that took from the first send. */
    readonly tried?: { tries: number; ms: number },
  ) {
    const reason = (cause as Error)?.message ?? cause;
    super(
      redact(
        tried
          ? `${call}: no answer after ${tried.tries} ${tried.tries === 1 ? "try" : "tries"} in ${seconds(tried.ms)} s (the last: ${reason})`
          : `${call}: no answer (${reason})`,
      ),
    );
    this.name = "NoAnswerError";
  }
}

/**
 * How long a request may go without an answer before `stalled` is told (a fixed delay, in real
 * time: well below the request timeout, so a silent target is named within seconds).
 */
export const NOTICE_AFTER_MS = 3000;
/** How long a request waits for its answer, unless `timeoutMs` says otherwise. */
export const TIMEOUT_MS = 15_000;
/**
 * The most of an answer's body the suite reads: the bound observe judges bodies to. Past it the
 * connection is cut and the call ends in a CutAnswerError, so a target that answers gigabytes costs
 * a run this much memory, not the process.
 */
export const MAX_ANSWER_BYTES = MAX_JUDGED_BODY_BYTES;
/**
 * How long one exchange may take in all, from the send to the last byte of the answer. The socket's
 * timeout (TIMEOUT_MS) counts only silence, so a body that trickles a byte every few seconds would
 * otherwise hold a run for ever.
 */
export const DEADLINE_MS = 60_000;
/** How many times a request without an answer is sent again (idempotent ones, unless `retry: false`). */
export const RETRIES = 3;
/** The pause before a request without an answer is sent again (× the time scale). */
export const RETRY_PAUSE_MS = 1000;

/**
 * The pause before a request that answered 5xx goes again (× the time scale), unless the answer
 * advised one: the seed's "500: temporary server-side problem; retry after a few seconds".
 */
export const SERVER_ERROR_PAUSE_MS = 1000;

/** A request that has had no answer for NOTICE_AFTER_MS, and how long the suite will keep trying. */
export interface Stall {
  method: string;
  /** Path and query as sent (redacted). */
  url: string;
  /** Where it was sent: the target's origin. */
  origin: string;
  /** This try (1 is the first send) of how many the request gets at most. */
  try: number;
  tries: number;
  /** How long it has waited (NOTICE_AFTER_MS), how long each try waits, the pause between tries. */
  afterMs: number;
  timeoutMs: number;
  pauseMs: number;
  /** All of it in a line (stallMessage), redacted. */
  message: string;
}

/**
 * A stalled request in a line: what is waited for, how long it will wait, how many tries are left,
 * and about how long that is in all (first try) or from now (later tries).
 */
export function stallMessage(stall: Omit<Stall, "message">): string {
  const left = stall.tries - stall.try;
  const then = left === 0 ? "then give up" : `then retry ${left} more ${left === 1 ? "time" : "times"}`;
  const which = stall.try > 1 ? ` (try ${stall.try} of ${stall.tries})` : "";
  const inAll = stall.tries * stall.timeoutMs + (stall.tries - 1) * stall.pauseMs;
  const more = stall.timeoutMs - stall.afterMs + left * (stall.pauseMs + stall.timeoutMs);
  const figure = stall.try === 1 ? `about ${seconds(inAll)} s in all` : `about ${seconds(more)} s more`;
  return `Waiting for ${stall.method} ${stall.url} at ${stall.origin}${which}: no answer after ${seconds(stall.afterMs)} s; will wait up to ${seconds(stall.timeoutMs)} s, ${then} (${figure}).`;
}

/** Milliseconds as seconds for a sentence: whole seconds, tenths below 10 s. */
function seconds(ms: number): string {
  return String(ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000));
}

/**
 * An answer larger than the suite reads (MAX_ANSWER_BYTES): cut there, never judged, and never
 * taken for an answer. It is a NoAnswerError, so every caller that handles a call without an answer
 * handles it; the status the target sent is kept for the evidence.
 */
export class CutAnswerError extends NoAnswerError {
  constructor(
    call: string,
    readonly status: number,
    readonly maxBytes: number,
    redact?: (text: string) => string,
  ) {
    super(call, new Error(cutMessage(maxBytes)), redact);
    // An answer came: "no answer" would send the reader looking for a target that is not there.
    this.message = `${call}: ${cutMessage(maxBytes)} (status ${status})`;
    this.name = "CutAnswerError";
  }
}

/** What a cut answer's exchange says, in its evidence and its error. */
export function cutMessage(maxBytes: number): string {
  return `answer larger than ${maxBytes} bytes: cut, not judged as JSON`;
}

/** An answer whose body passed the cap as it came (the socket is destroyed at once). */
class TooLarge extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | undefined>,
    maxBytes: number,
  ) {
    super(cutMessage(maxBytes));
  }
}

/** A kept-alive connection the server had closed when the request was written on it. */
class StaleConnection extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

export interface HttpOptions {
  baseUrl: string;
  apiKey: string;
  resellerApiKey?: string;
  pacer: Pacer;
  /** Called with every exchange, retries included. */
  record?: (evidence: Evidence) => void;
  /** Called with every exchange as it happened, retries included (what the judge reads). */
  exchanged?: (exchange: ObservedExchange) => void;
  /** Names the exchanges' producer (`ObservedExchange.by`). */
  by?: string;
  /** How long a request waits for its answer (default TIMEOUT_MS). */
  timeoutMs?: number;
  /** How long one exchange may take in all, headers and body (default DEADLINE_MS). */
  deadlineMs?: number;
  /** The most of an answer's body that is read (default MAX_ANSWER_BYTES). */
  maxBodyBytes?: number;
  /** Multiplies retry waits (the embedded simulator runs fast). */
  timeScale?: number;
  /**
   * Called when a request has had no answer for NOTICE_AFTER_MS, once per try (nothing is printed
   * unless the caller does: library use and tests stay quiet).
   */
  stalled?: (stall: Stall) => void;
  /** Told as each request leaves (retries included): what a run's progress counts. */
  sending?: (request: { method: string; url: string }) => void;
  /**
   * Told as a wait begins (before a retry: after a 429, a 5xx, no answer) or after one the pacer
   * made: what a run's progress shows and its time account adds up.
   */
  waiting?: (wait: Wait) => void;
}

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

export function createHttp(options: HttpOptions): Http {
  const base = new URL(options.baseUrl);
  const secure = base.protocol === "https:";
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const deadlineMs = options.deadlineMs ?? DEADLINE_MS;
  const maxBodyBytes = options.maxBodyBytes ?? MAX_ANSWER_BYTES;
  const scale = options.timeScale ?? 1;
  const prefix = base.pathname.replace(/\/$/, "");
  const redact = createRedactor([options.apiKey, options.resellerApiKey]);

  function urlOf({
    path,
    params = {},
    query = {},
    rawQuery,
  }: Pick<Request, "path" | "params" | "query" | "rawQuery">) {
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`path parameter ${name} of ${path} has no value`);
      return encodeURIComponent(String(value));
    });
    let search = "";
    if (rawQuery !== undefined) search = rawQuery.replace(/^\?/, "");
    else {
      const qs = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) qs.append(name, String(v));
      }
      search = qs.toString();
    }
    return `${prefix}${filled}${search ? `?${search}` : ""}`;
  }

  /** One answer as it came: what the exchange records, before anything reads it. */
  interface Raw {
    /** The request body as sent, undefined without one. */
    requestBody: string | undefined;
    status: number;
    requestHeaders: Record<string, string>;
    responseHeaders: Record<string, string | undefined>;
    text: string;
  }

  /** The request's headers and body as they are written. */
  function prepared(call: Request): { headers: Record<string, string>; payload: Buffer | undefined } {
    const headers: Record<string, string> = { Accept: "application/json" };
    const auth = call.auth ?? "client";
    if (auth === "client") headers.Authorization = `APIKey ${options.apiKey}`;
    else if (auth === "reseller") {
      if (options.resellerApiKey) headers.Authorization = `APIKey ${options.resellerApiKey}`;
    } else if (auth !== "none") headers[auth.header] = auth.value;
    const body = call.body instanceof OffSpec ? call.body.value : call.body;
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = String(payload.length);
    }
    return { headers, payload };
  }

  /** The request side an exchange records (for one that got no answer too). */
  function requestOf(call: Request): Pick<ObservedExchange, "requestHeaders" | "requestBody"> {
    const { headers, payload } = prepared(call);
    return { requestHeaders: flatHeaders(headers), requestBody: payload?.toString("utf8") };
  }

  function once(call: Request, url: string, stalled?: () => void): Promise<Raw> {
    if (call.auth === "reseller" && !options.resellerApiKey) throw new Error("no reseller API key was given");
    const { headers, payload } = prepared(call);
    const send = secure ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        {
          protocol: base.protocol,
          hostname: connectHost(base),
          port: base.port || undefined,
          method: call.method,
          path: url,
          headers,
          agent,
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBodyBytes) {
              chunks.length = 0;
              const cut = new TooLarge(res.statusCode ?? 0, flatHeaders(res.headers), maxBodyBytes);
              reject(cut);
              req.destroy(cut);
              return;
            }
            chunks.push(chunk);
          });
          res.on("error", reject);
          res.on("end", () =>
            resolve({
              requestBody: payload?.toString("utf8"),
              status: res.statusCode ?? 0,
              requestHeaders: headers,
              responseHeaders: flatHeaders(res.headers),
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        },
      );
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
      req.end(payload);
    });
  }

  /**
   * One exchange, sent again once on a fresh connection when a kept-alive one turned out closed by
   * the server as the request left (Node's documented keep-alive race, `request.reusedSocket`):
   * the server never saw it, so it is not the target's answer, and a request without side effects
   * may go again.
   */
  async function onceFresh(call: Request, url: string, stalled?: () => void): Promise<Raw> {
    try {
      return await once(call, url, stalled);
    } catch (error) {
      if (!(error instanceof StaleConnection) || call.method === "POST") throw error;
      return once(call, url, stalled);
    }
  }

  async function send<Op>(call: Request): Promise<Answer<Op>> {
    const url = urlOf(call);
    const retry = call.retry ?? true;
    const idempotent = call.method !== "POST";
    const retries = call.retries ?? RETRIES;
    const tries = retry && idempotent ? retries + 1 : 1;
    const pauseMs = RETRY_PAUSE_MS * scale;
    let first: number | undefined;
    let serverErrorRetries = 0;
    const waiting = (reason: string, at: number, ms: number) =>
      options.waiting?.({ reason, at, ms, method: call.method, url: redact(url) });
    for (let attempt = 0; ; attempt++) {
      if (call.paced ?? true) {
        const pacedAt = Date.now();
        const before = performance.now();
        await options.pacer.wait();
        const paced = performance.now() - before;
        if (paced >= 1) waiting("pacing", pacedAt, Math.round(paced));
      }
      const seq = ++nextSeq;
      resends.set(seq, { again: () => send(call), curl: (variables) => curlOfCall(call, url, variables) });
      const at = Date.now();
      options.sending?.({ method: call.method, url: redact(url) });
      const started = performance.now();
      first ??= started;
      const stalled =
        options.stalled &&
        (() => {
          const stall = {
            method: call.method,
            url: redact(url),
            origin: redact(base.origin),
            try: attempt + 1,
            tries,
            afterMs: NOTICE_AFTER_MS,
            timeoutMs,
            pauseMs,
          };
          options.stalled?.({ ...stall, message: redact(stallMessage(stall)) });
        });
      let raw: Raw;
      try {
        raw = await onceFresh(call, url, stalled);
      } catch (error) {
        const durationMs = Math.round(performance.now() - started);
        if (error instanceof TooLarge) {
          // An answer came, too large to read: recorded with its status and no body (the judge
          // counts it as a body it did not read), and not sent again: it would be as large again.
          options.exchanged?.({
            ...exchangeOf(call, url, at, durationMs, seq),
            ...requestOf(call),
            status: error.status,
            responseHeaders: error.headers,
            body: undefined,
            error: error.message,
          });
          const cut: Evidence = {
            method: call.method,
            path: pathOf(redact(url)),
            status: error.status,
            excerpt: excerptOf(error.message),
            contentType: error.headers["content-type"] ?? null,
            at,
            durationMs,
            seq,
            ...requestEvidence(requestOf(call), redact),
            responseHeaders: shownHeaders(error.headers, redact),
          };
          options.record?.(cut);
          const thrown = new CutAnswerError(
            redact(`${call.method} ${url}`),
            error.status,
            maxBodyBytes,
            redact,
          );
          evidenceBy.set(thrown, cut);
          throw thrown;
        }
        const reason = `no answer: ${(error as Error).message}`;
        const sent = requestOf(call);
        options.exchanged?.({
          ...exchangeOf(call, url, at, durationMs, seq),
          ...sent,
          status: null,
          responseHeaders: {},
          body: undefined,
          error: reason,
        });
        const again = attempt + 1 < tries;
        const lost: Evidence = {
          method: call.method,
          path: pathOf(redact(url)),
          status: null,
          excerpt: excerptOf(redact(reason)),
          at,
          durationMs,
          seq,
          // The pause before the next try is the run's time too: said as a 429's wait is.
          ...(again ? { waitedMs: Math.round(pauseMs) } : {}),
          ...requestEvidence(sent, redact),
        };
        options.record?.(lost);
        if (again) {
          waiting("after no answer", Date.now(), pauseMs);
          await sleep(pauseMs);
          continue;
        }
        const thrown = new NoAnswerError(redact(`${call.method} ${url}`), error, redact, {
          tries,
          ms: performance.now() - first,
        });
        evidenceBy.set(thrown, lost);
        throw thrown;
      }
      const exchange: ObservedExchange & { status: number } = {
        ...exchangeOf(call, url, at, Math.round(performance.now() - started), seq),
        requestHeaders: flatHeaders(raw.requestHeaders),
        ...(raw.requestBody === undefined ? {} : { requestBody: raw.requestBody }),
        status: raw.status,
        responseHeaders: raw.responseHeaders,
        body: raw.text,
      };
      // The evidence's path is the URL as sent (with the target's base path), redacted.
      const { answer, evidence } = decodeExchange(exchange, call.path, redact, operationIdOf(call));
      evidence.path = pathOf(redact(url));
      answer.url = url;
      const limited = answer.status === requestRate().exceededStatus;
      const serverError = idempotent && [500, 502, 503, 504].includes(answer.status);
      const again = retry && attempt < RETRIES && (limited || (serverError && serverErrorRetries < retries));
      if (again && serverError) serverErrorRetries++;
      if (again) exchange.retried = true;
      options.exchanged?.(exchange);
      options.record?.(evidence);
      evidenceBy.set(answer, evidence);
      // The operation's type is attached here: what the body holds is checked by expectStatus.
      if (!again) return answer as Answer<Op>;
      // The seed: 429 "slow down and retry" (without Retry-After, after the rate's period); 500
      // "retry after a few seconds".
      const advised = retryAfterMs(answer.headers["retry-after"]);
      const fallback = limited ? requestRate().periodSeconds * 1000 : SERVER_ERROR_PAUSE_MS;
      const wait = Math.min(advised ?? fallback, 10_000) * (advised === undefined ? scale : 1);
      evidence.waitedMs = Math.round(wait);
      waiting(`after ${answer.status}`, Date.now(), wait);
      await sleep(wait);
    }
  }

  /** The request as sent, as a curl command: every key as "$VARIABLE", the rest as it went. */
  function curlOfCall(call: Request, url: string, variables: KeyVariables): string {
    const { headers, payload } = prepared(call);
    const keys = [
      { key: options.apiKey, variable: variables.apiKey },
      ...(options.resellerApiKey
        ? [{ key: options.resellerApiKey, variable: variables.resellerApiKey }]
        : []),
    ].sort((a, b) => b.key.length - a.key.length);
    return curlCommand({
      method: call.method,
      url: `${base.origin}${url}`,
      headers: Object.entries(headers)
        .filter(([name]) => !/^(accept|content-type|content-length)$/i.test(name))
        .map(([name, value]) => headerWord(name, value, keys)),
      ...(payload === undefined ? {} : { body: payload.toString("utf8") }),
    });
  }

  /** The request side of an exchange: the URL relative to the target's base, as the judge matches it. */
  /** Which of the run's keys the request carries, however its header is written. */
  function roleOf(call: Request): Pick<ObservedExchange, "tokenRole"> {
    const auth = call.auth ?? "client";
    if (auth === "client") return { tokenRole: "client" };
    if (auth === "reseller") return options.resellerApiKey ? { tokenRole: "reseller" } : {};
    if (auth === "none") return {};
    const token = /^\s*\S+\s+(.+?)\s*$/.exec(auth.value)?.[1];
    if (token === options.apiKey) return { tokenRole: "client" };
    if (token !== undefined && token === options.resellerApiKey) return { tokenRole: "reseller" };
    return {};
  }

  function exchangeOf(call: Request, url: string, at: number, durationMs: number, seq: number) {
    return {
      seq,
      method: call.method,
      url: url.slice(prefix.length),
      requestHeaders: {},
      at,
      durationMs,
      ...(options.by === undefined ? {} : { by: options.by }),
      ...roleOf(call),
      ...(call.unknownParameter === undefined ? {} : { unknownParameter: call.unknownParameter }),
      ...(call.offSpec === undefined ? {} : { offSpec: call.offSpec }),
      ...(call.openParameters === undefined ? {} : { openParameters: call.openParameters }),
    };
  }

  return {
    // A typed call is a request whose types were checked at compile time.
    call: (call) => send(call as Request),
    send,
    urlOf,
  };
}

/** The operation a request calls, by the spec's paths. */
function operationIdOf(call: Request): string | undefined {
  return findOperation(specModel(), call.method, call.path)?.operationId;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, Math.max(0, ms)));
}
