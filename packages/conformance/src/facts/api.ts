// The suite's calls typed by the spec's generated types: a call names a path of `paths` and one of
// that path's methods, its parameters and body are the operation's, and an answer whose status is
// checked has the body that status documents. A spec change that breaks a scenario fails to compile.

import type { paths } from "@platform-api/spec/generated/openapi";
import type { HttpMethod } from "@platform-api/spec/model";

/** A path template of the description, e.g. "/cloud/v1/tasks/{task_id}". */
export type Path = keyof paths;

/** The methods a path has, as the suite writes them ("GET"). */
export type MethodOf<P extends Path> = {
  [M in HttpMethod]: paths[P][M & keyof paths[P]] extends { responses: unknown } ? Uppercase<M> : never;
}[HttpMethod];

/** The generated type of the operation at a path and method (`operations["listRegions"]`). */
export type OperationAt<P extends Path, M extends MethodOf<P>> =
  Lowercase<M> extends keyof paths[P] ? paths[P][Lowercase<M>] : never;

type Responses<Op> = Op extends { responses: infer R } ? R : never;

/** The statuses an operation documents as numbers; any number for an operation the types do not know. */
export type StatusOf<Op> = [Responses<Op>] extends [never] ? number : Extract<keyof Responses<Op>, number>;

type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : undefined;

/** The body a status documents: its JSON schema's type, `undefined` when it documents no body. */
export type BodyOf<Op, S> = [Responses<Op>] extends [never]
  ? unknown
  : S extends keyof Responses<Op>
    ? JsonOf<Responses<Op>[S]>
    : unknown;

/**
 * A body sent on purpose against the spec (a refusal scenario: a missing required field, a wrong
 * type). Only what is wrapped in `offSpec()` escapes the operation's types.
 */
export class OffSpec {
  // Nominal: a body type with a `value` field is not taken for an OffSpec.
  declare private readonly offSpecBrand: true;
  constructor(readonly value: unknown) {}
}

export const offSpec = (value: unknown): OffSpec => new OffSpec(value);

/** Query values as they go on the wire (a repeated parameter as an array). */
export type Query = Record<string, string | number | boolean | readonly (string | number)[] | undefined>;

/** How a call authenticates: the client key (default), the reseller key, none, or an exact header. */
export type Auth = "client" | "reseller" | "none" | { header: string; value: string };

export interface CallOptions {
  /** A query string used as is (a `next` link), instead of `query`. */
  rawQuery?: string;
  auth?: Auth;
  /**
   * Retry the rate limit's answer (429, after Retry-After) and, for GET and PUT, 5xx and lost
   * connections. Default true.
   */
  retry?: boolean;
  /**
   * How many times a request without an answer, or a GET or PUT answered 5xx, is sent again
   * (default RETRIES; fuzz gives 1: the seed calls a 500 temporary, so a second one is a finding).
   */
  retries?: number;
  /** Wait for the pacer. Default true; the burst turns it off. */
  paced?: boolean;
  /** The path parameter given a value no resource has, on purpose (the judge's errors.unknown-id-404). */
  unknownParameter?: string;
  /**
   * Why the request breaks the spec, when it does on purpose (fuzz's forbidden values): a 4xx its
   * operation does not document is then its refusal, not a finding (the seed documents few).
   */
  offSpec?: string;
  /** Query parameters holding a value whose effect the spec leaves open (ObservedExchange.openParameters). */
  openParameters?: string[];
}

type Parameters<Op> = Op extends { parameters: infer X } ? X : never;

type PathPart<Op> = Parameters<Op> extends { path: infer X } ? { params: X } : { params?: undefined };

type QueryPart<Op> =
  Parameters<Op> extends { query?: infer Q }
    ? [Exclude<Q, undefined>] extends [never]
      ? { query?: undefined }
      : { query?: Q }
    : { query?: undefined };

type BodyPart<Op> = Op extends { requestBody: { content: { "application/json": infer B } } }
  ? { body: B | OffSpec }
  : Op extends { requestBody?: { content: { "application/json": infer B } } }
    ? { body?: B | OffSpec }
    : { body?: undefined };

/** A call of the operation at `path` and `method`, typed by the operation. */
export type Call<P extends Path, M extends MethodOf<P>> = { method: M; path: P } & PathPart<
  OperationAt<P, M>
> &
  QueryPart<OperationAt<P, M>> &
  BodyPart<OperationAt<P, M>> &
  CallOptions;

/**
 * A call of an operation picked from the spec model (the offset lists, a poll operation), whose
 * path is known only at run time.
 */
export interface Request extends CallOptions {
  method: Uppercase<HttpMethod>;
  /** Path template as in the spec, e.g. "/cloud/v1/tasks/{task_id}". */
  path: string;
  params?: Record<string, string | number>;
  query?: Query;
  body?: unknown;
}
