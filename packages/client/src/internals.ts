// What the helpers (`paginate`, `waitForTask`) need of a client that its public face does not
// show. Kept beside the client object, not on it: nothing of it is enumerable, serialisable or
// reachable from the client, and a program that imports no helper carries none of their code.
import type { Redactor } from "./redact.js";
import type { FetchResult } from "./results.js";

/** One of the client's own calls (`client.GET(path, init)` and the like): checked, paced, redacted. */
export type Send = (method: string, path: string, init: object) => Promise<FetchResult<unknown>>;

export interface ClientInternals {
  /** The client's product (`x-product`), or undefined for the whole API's client. */
  readonly product: string | undefined;
  /** Redacts the client's keys from whatever a helper throws. */
  readonly redactor: Redactor;
  readonly send: Send;
}

const INTERNALS = new WeakMap<object, ClientInternals>();

export function rememberClient(client: object, internals: ClientInternals): void {
  INTERNALS.set(client, internals);
}

/** The internals of a client made by `createClient`; a TypeError naming the helper for anything else. */
export function internalsOf(client: unknown, helper: string): ClientInternals {
  const internals = typeof client === "object" && client !== null ? INTERNALS.get(client) : undefined;
  if (!internals)
    throw new TypeError(
      `${helper}: the first argument must be a client made by createClient (of @platform-api/client or one of its product entries), got ${client === null ? "null" : typeof client}`,
    );
  return internals;
}
