// What each try of a call leaves behind: the exchange the judge reads, the evidence a report shows
// (keys hidden), and — for an answer handed out or an error thrown — the evidence it is about.

import { findOperation } from "@platform-api/spec";
import type { Request } from "../facts/api.js";
import { specModel } from "../facts/spec.js";
import type { Evidence } from "../shared/context.js";
import { flatHeaders, type ObservedExchange } from "../shared/exchange.js";
import { type Answer, decodeExchange, excerptOf, pathOf, requestEvidence } from "./answer.js";
import { CutAnswerError, NoAnswerError } from "./errors.js";
import type { Layer } from "./layer.js";
import type { TooLarge } from "./read-answer.js";
import { requestOf, roleOf } from "./request.js";
import type { Raw } from "./send-one.js";
import { shownHeaders } from "./shown-headers.js";

/** The evidence of each answer handed out, and of each error thrown for an exchange without one. */
const evidenceBy = new WeakMap<object, Evidence>();

/** The evidence of an answer this layer gave, or of the exchange a NoAnswerError (or CutAnswerError) is about. */
export const evidenceOf = (of: object): Evidence | undefined => evidenceBy.get(of);

/** One try of a call: the URL as sent, its number in the run, when it left. */
export interface Sent {
  call: Request;
  url: string;
  seq: number;
  at: number;
}

/** An answer too large to read: recorded with its status and no body; the error the call ends in. */
export function cutAnswer(layer: Layer, sent: Sent, durationMs: number, error: TooLarge): CutAnswerError {
  const { options, redact } = layer;
  const { call, url, seq, at } = sent;
  // The judge counts it as a body it did not read. It is not sent again: it would be as large again.
  options.exchanged?.({
    ...exchangeOf(layer, sent, durationMs),
    ...requestOf(call, options),
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
    ...requestEvidence(requestOf(call, options), redact),
    responseHeaders: shownHeaders(error.headers, redact),
  };
  options.record?.(cut);
  const thrown = new CutAnswerError(
    redact(`${call.method} ${url}`),
    error.status,
    layer.maxBodyBytes,
    redact,
  );
  evidenceBy.set(thrown, cut);
  return thrown;
}

/** A try without an answer, recorded; `waitedMs`: the pause before the next try, when there is one. */
export function noAnswer(
  layer: Layer,
  sent: Sent,
  durationMs: number,
  error: unknown,
  waitedMs: number | undefined,
): Evidence {
  const { options, redact } = layer;
  const { call, url, seq, at } = sent;
  const reason = `no answer: ${(error as Error).message}`;
  const request = requestOf(call, options);
  options.exchanged?.({
    ...exchangeOf(layer, sent, durationMs),
    ...request,
    status: null,
    responseHeaders: {},
    body: undefined,
    error: reason,
  });
  const lost: Evidence = {
    method: call.method,
    path: pathOf(redact(url)),
    status: null,
    excerpt: excerptOf(redact(reason)),
    at,
    durationMs,
    seq,
    // The pause before the next try is the run's time too: said as a 429's wait is.
    ...(waitedMs === undefined ? {} : { waitedMs }),
    ...requestEvidence(request, redact),
  };
  options.record?.(lost);
  return lost;
}

/** The error a call ends in after its last try without an answer (`lost` that try's evidence). */
export function noAnswerError(
  layer: Layer,
  sent: Sent,
  error: unknown,
  lost: Evidence,
  tried: { tries: number; ms: number },
): NoAnswerError {
  const { redact } = layer;
  const thrown = new NoAnswerError(redact(`${sent.call.method} ${sent.url}`), error, redact, tried);
  evidenceBy.set(thrown, lost);
  return thrown;
}

/** An answer as the judge and the caller read it: nothing told yet (handOut tells). */
export function answered(
  layer: Layer,
  sent: Sent,
  raw: Raw,
  durationMs: number,
): { exchange: ObservedExchange & { status: number }; answer: Answer; evidence: Evidence } {
  const { redact } = layer;
  const { call, url } = sent;
  const exchange: ObservedExchange & { status: number } = {
    ...exchangeOf(layer, sent, durationMs),
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
  return { exchange, answer, evidence };
}

/** Tells the judge and the record of an answer, and keeps its evidence for evidenceOf. */
export function handOut(layer: Layer, exchange: ObservedExchange, evidence: Evidence, answer: Answer): void {
  layer.options.exchanged?.(exchange);
  layer.options.record?.(evidence);
  evidenceBy.set(answer, evidence);
}

/** The request side of an exchange: the URL relative to the target's base, as the judge matches it. */
function exchangeOf(layer: Layer, { call, url, seq, at }: Sent, durationMs: number) {
  const { options } = layer;
  return {
    seq,
    method: call.method,
    url: url.slice(layer.prefix.length),
    requestHeaders: {},
    at,
    durationMs,
    ...(options.by === undefined ? {} : { by: options.by }),
    ...roleOf(call, options),
    ...(call.unknownParameter === undefined ? {} : { unknownParameter: call.unknownParameter }),
    ...(call.offSpec === undefined ? {} : { offSpec: call.offSpec }),
    ...(call.openParameters === undefined ? {} : { openParameters: call.openParameters }),
  };
}

/** The operation a request calls, by the spec's paths. */
function operationIdOf(call: Request): string | undefined {
  return findOperation(specModel(), call.method, call.path)?.operationId;
}
