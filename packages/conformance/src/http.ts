// The suite's HTTP layer: node:http(s) rather than fetch, because fetch lower-cases header names
// and the auth scenarios must send `AUTHORIZATION` and `authorization` exactly as written. Every
// exchange is recorded as evidence (method, path, status, an excerpt of the body; never a header).
// An answer's text is redacted of both keys as it arrives, before anything cuts it: a key a
// target echoes back that straddled a cut would otherwise survive as a piece no redactor knows.

import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import {
  type BodyOf,
  type Call,
  type MethodOf,
  OffSpec,
  type OperationAt,
  type Path,
  type Request,
  type StatusOf,
} from "./api.js";
import type { Evidence, JudgedExchange } from "./context.js";
import { judgeAnswer } from "./judge.js";
import type { Pacer } from "./pacer.js";
import { requestRate } from "./rate.js";
import { createRedactor } from "./redact.js";

declare const answerOf: unique symbol;

/** An answer, typed by the operation called (`Op`: its generated type; unknown for a model-picked one). */
export interface Answer<Op = unknown> {
  method: string;
  /** The path template called. */
  template: string;
  /** Path and query as sent. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text, with both keys redacted (in any form) before anything cuts it. */
  text: string;
  /**
   * Parsed JSON body, or undefined when empty or not JSON. Unknown until the status is checked
   * (`expectStatus`), which types it as the body the operation documents for that status.
   */
  body: unknown;
  contentType: string | null;
  /** Type only: the operation the answer belongs to. */
  readonly [answerOf]?: Op;
}

/** An answer whose status was checked: its body has the type the status documents. */
export type Answered<Op, S extends StatusOf<Op>> = Answer<Op> & { status: S; body: BodyOf<Op, S> };

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
/** How many times a request without an answer is sent again (idempotent ones, unless `retry: false`). */
export const RETRIES = 3;
/** The pause before a request without an answer is sent again (× the time scale). */
export const RETRY_PAUSE_MS = 1000;

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
  /** Called with the judgement of every answer against the spec, retries included. */
  judged?: (judged: JudgedExchange) => void;
  /** How long a request waits for its answer (default TIMEOUT_MS). */
  timeoutMs?: number;
  /** Multiplies retry waits (the embedded simulator runs fast). */
  timeScale?: number;
  /**
   * Called when a request has had no answer for NOTICE_AFTER_MS, once per try (nothing is printed
   * unless the caller does: library use and tests stay quiet).
   */
  stalled?: (stall: Stall) => void;
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

const EXCERPT = 300;

export function createHttp(options: HttpOptions): Http {
  const base = new URL(options.baseUrl);
  const secure = base.protocol === "https:";
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
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

  function once(call: Request, url: string, stalled?: () => void): Promise<Answer> {
    const headers: Record<string, string> = { Accept: "application/json" };
    const auth = call.auth ?? "client";
    if (auth === "client") headers.Authorization = `APIKey ${options.apiKey}`;
    else if (auth === "reseller") {
      if (!options.resellerApiKey) throw new Error("no reseller API key was given");
      headers.Authorization = `APIKey ${options.resellerApiKey}`;
    } else if (auth !== "none") headers[auth.header] = auth.value;
    const body = call.body instanceof OffSpec ? call.body.value : call.body;
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (payload) {
      headers["Content-Type"] = "application/json";
      headers["Content-Length"] = String(payload.length);
    }
    const send = secure ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        {
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port || undefined,
          method: call.method,
          path: url,
          headers,
          agent,
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", reject);
          res.on("end", () => {
            const raw = Buffer.concat(chunks).toString("utf8");
            const contentType = (res.headers["content-type"] as string | undefined) ?? null;
            let body: unknown;
            if (raw !== "") {
              try {
                body = JSON.parse(raw);
              } catch {
                body = undefined;
              }
            }
            resolve({
              method: call.method,
              template: call.path,
              url,
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: redact(raw),
              body,
              contentType,
            });
          });
        },
      );
      // From the send until the answer's status line: a request that waits that long is named.
      const notice = stalled === undefined ? undefined : setTimeout(stalled, NOTICE_AFTER_MS);
      const answered = () => clearTimeout(notice);
      req.once("response", answered);
      req.once("close", answered);
      req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on("error", (error: NodeJS.ErrnoException) => {
        answered();
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
  async function onceFresh(call: Request, url: string, stalled?: () => void): Promise<Answer> {
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
    const tries = retry && idempotent ? RETRIES + 1 : 1;
    const pauseMs = RETRY_PAUSE_MS * scale;
    let first: number | undefined;
    for (let attempt = 0; ; attempt++) {
      if (call.paced ?? true) await options.pacer.wait();
      const at = Date.now();
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
      let answer: Answer;
      try {
        answer = await onceFresh(call, url, stalled);
      } catch (error) {
        options.record?.({
          method: call.method,
          path: redact(url),
          status: null,
          excerpt: excerptOf(redact(`no answer: ${(error as Error).message}`)),
          at,
          durationMs: Math.round(performance.now() - started),
        });
        if (attempt + 1 < tries) {
          await sleep(pauseMs);
          continue;
        }
        throw new NoAnswerError(redact(`${call.method} ${url}`), error, redact, {
          tries,
          ms: performance.now() - first,
        });
      }
      const evidence: Evidence = {
        method: call.method,
        path: redact(url),
        status: answer.status,
        // answer.text is redacted already: the excerpt is cut from redacted text.
        excerpt: excerptOf(answer.text),
        contentType: answer.contentType,
        at,
        durationMs: Math.round(performance.now() - started),
      };
      // Every answer is judged against the spec, whatever the scenario that asked looks at.
      const judged = judgeAnswer(answer, evidence);
      if (judged) {
        evidence.operationId = judged.operationId;
        options.judged?.(judged);
      }
      options.record?.(evidence);
      const limited = answer.status === requestRate().exceededStatus;
      const again =
        retry &&
        attempt < RETRIES &&
        (limited || (idempotent && [500, 502, 503, 504].includes(answer.status)));
      // The operation's type is attached here: what the body holds is checked by expectStatus.
      if (!again) return answer as Answer<Op>;
      // The seed: 429 "slow down and retry" (without Retry-After, after the rate's period); 500
      // "retry after a few seconds".
      const advised = retryAfterMs(answer.headers["retry-after"]);
      const fallback = limited ? requestRate().periodSeconds * 1000 : 1000;
      const wait = Math.min(advised ?? fallback, 10_000) * (advised === undefined ? scale : 1);
      evidence.waitedMs = Math.round(wait);
      await sleep(wait);
    }
  }

  return {
    // A typed call is a request whose types were checked at compile time.
    call: (call) => send(call as Request),
    send,
    urlOf,
  };
}

/** The first 300 characters of `text`: give it text that is already redacted. */
export function excerptOf(text: string): string {
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or invalid. */
export function retryAfterMs(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) return Math.max(0, at - Date.now());
  }
  return undefined;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, Math.max(0, ms)));
}
