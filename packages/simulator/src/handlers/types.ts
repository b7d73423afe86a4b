// Handlers are typed by operation from the spec's generated types: `Handler<"listRegions">` receives
// listRegions' path, query and body and must answer one of its documented success statuses with
// that status's body. A spec change that breaks a handler fails compilation.

import type { MODEL } from "@platform-api/spec/generated/model";
import type { operations } from "@platform-api/spec/generated/openapi";
import type { Caller, Store } from "../store.js";

export type OperationId = keyof operations;

type Operation<Id extends OperationId> = operations[Id];

/** A request part the operation has, or an empty object where it has none. */
type Part<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;

type ModelOperation<Id extends OperationId> = Extract<
  (typeof MODEL)["operations"][number],
  { readonly operationId: Id }
>;

/** Query parameters with a default in the spec: route validation fills them in, so they are present. */
type Defaulted<Id extends OperationId> = Extract<
  ModelOperation<Id>["parameters"][number],
  { readonly in: "query"; readonly default: unknown }
>["name"];

type Query<Id extends OperationId> = Part<Operation<Id>["parameters"]["query"]>;

export type PathOf<Id extends OperationId> = Part<Operation<Id>["parameters"]["path"]>;
export type QueryOf<Id extends OperationId> = Query<Id> & {
  [Name in Defaulted<Id> & keyof Query<Id>]-?: NonNullable<Query<Id>[Name]>;
};
export type BodyOf<Id extends OperationId> = Operation<Id>["requestBody"] extends {
  content: { "application/json": infer Body };
}
  ? Body
  : undefined;

/** The concrete statuses a documented success range stands for. */
type Statuses<Documented> = Documented extends "2XX" ? 200 | 201 | 202 | 204 : Documented;

type ContentOf<Response> = Response extends { content: { "application/json": infer Body } }
  ? Body
  : undefined;

type Responses<Id extends OperationId> = Operation<Id>["responses"];
type SuccessStatus<Id extends OperationId> = Extract<keyof Responses<Id>, 200 | 201 | 202 | 204 | "2XX">;

/** One of the operation's documented successes: its status and that status's body. */
export type AnswerOf<Id extends OperationId> = {
  [Status in SuccessStatus<Id>]: ContentOf<Responses<Id>[Status]> extends undefined
    ? { status: Statuses<Status>; body?: undefined }
    : { status: Statuses<Status>; body: ContentOf<Responses<Id>[Status]> };
}[SuccessStatus<Id>];

/** What a handler sees: the request after auth and spec validation (the spec's defaults applied). */
export interface ApiRequest<Id extends OperationId> {
  params: PathOf<Id>;
  query: QueryOf<Id>;
  body: BodyOf<Id>;
  /** The query string as sent, for links that must keep the caller's filters. */
  rawQuery: string;
  /** The items the query selects, in the order it asks (query.ts; paging is the handler's). */
  select: <T>(items: readonly T[]) => T[];
  caller: Caller;
  store: Store;
}

export type Handler<Id extends OperationId> = (request: ApiRequest<Id>) => AnswerOf<Id>;

/** One handler per operation of the generated types: a missing or extra one fails compilation. */
export type HandlerRegistry = { readonly [Id in OperationId]: Handler<Id> };

/** The seed's offset list: `count` is the total, `results` at most `limit` from `offset`. */
export function offsetPage<T>(items: readonly T[], query: { limit?: number; offset?: number }) {
  const offset = query.offset ?? 0;
  return { count: items.length, results: items.slice(offset, offset + (query.limit ?? items.length)) };
}
