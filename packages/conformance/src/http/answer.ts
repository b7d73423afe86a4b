// One exchange read as an answer, in one place for every producer (the suite's own HTTP layer, the
// observe proxy, a HAR file): its body decoded, its evidence cut, and its judgement against the
// spec. The judgement: the status documented for its operation, the content type documented for
// that status, the body valid against the schema. Judged twice: against what the seed states (the
// spec's inferred-required fields optional) for `must`, and with the inferences too for `should`,
// so an answer that only leaves out an inferred field is a warning, not a failure. What the spec
// leaves unspecified (open schemas, x-unspecified) is open in the schemas: unasserted.

import {
  documentsStatus,
  findOperation,
  type OperationModel,
  platformFactsOf,
  type StatusFact,
} from "@platform-api/spec";
import type { BodyOf, StatusOf } from "../facts/api.js";
import { type Inferred, specModel, specValidator } from "../facts/spec.js";
import type { Evidence, JudgedExchange } from "../shared/context.js";
import type { ObservedExchange } from "../shared/exchange.js";
import { cutText, shownHeaders } from "./shown-headers.js";

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
  /** The body as text, with the keys redacted (in any form) before anything cuts it. */
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

const EXCERPT = 300;

/** The first 300 characters of `text`, the cut said: give it text that is already redacted. */
export function excerptOf(text: string): string {
  return cutText(text, EXCERPT);
}

/**
 * How much of a path and query evidence keeps, and of a problem's sentence (which quotes one): a
 * client may send a URL of megabytes, and a report holds one per exchange it shows.
 */
const PATH = 1000;
export const PROBLEM = 2000;

/** The first 1000 characters of a path and query, the cut said: give it text that is already redacted. */
export function pathOf(url: string): string {
  return cutText(url, PATH);
}

/** The body as JSON, undefined when empty or not JSON. */
export function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * An answered exchange as the suite reads it: `redact` applied to the text and the URL before
 * anything is cut from them (a key a target echoed never survives as a piece).
 */
export function decodeExchange(
  exchange: ObservedExchange & { status: number },
  template: string,
  redact: (text: string) => string,
  operationId?: string,
): { answer: Answer; evidence: Evidence } {
  const raw = exchange.body ?? "";
  const text = redact(raw);
  const contentType = exchange.responseHeaders["content-type"] ?? null;
  const answer: Answer = {
    method: exchange.method.toUpperCase(),
    template,
    url: redact(exchange.url),
    status: exchange.status,
    headers: exchange.responseHeaders,
    text,
    body: parseBody(raw),
    contentType,
  };
  const evidence: Evidence = {
    method: answer.method,
    path: pathOf(answer.url),
    status: exchange.status,
    excerpt: excerptOf(text),
    ...(operationId === undefined ? {} : { operationId }),
    ...(exchange.seq === undefined ? {} : { seq: exchange.seq }),
    contentType,
    at: exchange.at,
    durationMs: Math.round(exchange.durationMs),
    ...requestEvidence(exchange, redact),
    responseHeaders: shownHeaders(exchange.responseHeaders, redact),
  };
  return { answer, evidence };
}

/** What evidence keeps of the request: its headers and its body, redacted and bounded. */
export function requestEvidence(
  exchange: Pick<ObservedExchange, "requestHeaders" | "requestBody">,
  redact: (text: string) => string,
): Pick<Evidence, "requestHeaders" | "requestBody"> {
  return {
    requestHeaders: shownHeaders(exchange.requestHeaders, redact),
    ...(exchange.requestBody === undefined || exchange.requestBody === ""
      ? {}
      : // Redacted whole before the cut, as an answer's text is.
        { requestBody: excerptOf(redact(exchange.requestBody)) }),
  };
}

/**
 * The platform's own published descriptions' fact documenting this status where the description
 * (the seed) documents none (spec/platform-facts.yaml): the live platform answers it, so it is no
 * deviation the suite may fail it for.
 */
function platformStatus(operation: OperationModel, status: number): StatusFact | undefined {
  if (documentsStatus(operation, status)) return undefined;
  return platformFactsOf(operation.operationId).find(
    (f): f is StatusFact => f.kind === "status" && f.seed === "silent" && f.status === String(status),
  );
}

/** The judgement of one answer; undefined for a call of no operation of the spec (none is made). */
export function judgeAnswer(answer: Answer, evidence: Evidence): JudgedExchange | undefined {
  const operation = findOperation(specModel(), answer.method, answer.template);
  if (!operation) return undefined;
  // What the seed leaves open and the platform documents is never a failure (issue #29): its body
  // is judged by the merged description only, at `should`.
  const platformOnly = platformStatus(operation, answer.status) !== undefined;
  const problems = (inferred: Inferred) => {
    const errors = specValidator(inferred).validateResponse({
      method: answer.method,
      path: answer.template,
      status: answer.status,
      contentType: answer.contentType,
      body: answer.body,
      hasBody: answer.text !== "",
    });
    if (answer.text !== "" && answer.body === undefined && /json/.test(answer.contentType ?? ""))
      errors.push("the body is not valid JSON");
    return errors;
  };
  const must = platformOnly ? [] : problems("optional");
  const should = problems("required").filter((p) => !must.includes(p));
  const at = `${answer.method} ${evidence.path} → ${answer.status}`;
  return {
    operationId: operation.operationId,
    evidence,
    must: must.map((p) => `${at}: ${p}`),
    should: should.map((p) => `${at}: ${p}`),
  };
}
