import type { Caller, Store } from "../store.js";

/** What a handler sees: the request after auth and spec validation (defaults applied). */
export interface ApiRequest {
  params: Record<string, any>;
  query: Record<string, any>;
  body: any;
  /** The query string as sent, for links that must keep the caller's filters. */
  rawQuery: string;
  caller: Caller;
  store: Store;
}

export interface ApiResponse {
  status?: number;
  body?: unknown;
}

export type Handler = (request: ApiRequest) => ApiResponse;

export const ok = (body: unknown): ApiResponse => ({ status: 200, body });

/** The seed's offset list: `count` is the total, `results` at most `limit` from `offset`. */
export function offsetPage<T>(items: readonly T[], query: { limit?: number; offset?: number }) {
  const limit = query.limit ?? 1000;
  const offset = query.offset ?? 0;
  return { count: items.length, results: items.slice(offset, offset + limit) };
}
