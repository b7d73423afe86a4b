// The seed's authentication: `Authorization: APIKey <token>` (the header name in any case, which
// Node already lowers), 401 for a missing, malformed, unknown or expired token, 403 for a valid
// token without permission — a read-only token on a write, a client token on the reseller API,
// a reseller (admin-portal) token on a client operation.

import { ApiError } from "./errors.js";
import type { SpecOperation } from "./operations.js";
import type { Caller, Store } from "./store.js";

const SCHEME = "APIKey ";

/**
 * The caller of `operation`, from the request's raw headers (Node keeps only the first of several
 * Authorization headers, so they are read raw); an ApiError (401 or 403) when it may not call it.
 */
export function authenticate(
  rawHeaders: readonly string[],
  store: Store,
  operation: Pick<SpecOperation, "operationId" | "schemes" | "method">,
): Caller {
  const headers = authorizationHeaders(rawHeaders);
  const header = headers.length > 1 ? headers : headers[0];
  const access = { ...operation, write: operation.method !== "GET" };
  if (header === undefined || header === "")
    throw new ApiError(401, "The Authorization header is missing; send `Authorization: APIKey <token>`.");
  if (Array.isArray(header)) throw new ApiError(401, "Send one Authorization header, not several.");
  if (
    !header.startsWith(SCHEME) ||
    header.length === SCHEME.length ||
    /\s/.test(header.slice(SCHEME.length))
  ) {
    throw new ApiError(401, "The Authorization header must be the word APIKey, one space, then the token.");
  }
  const token = store.token(header.slice(SCHEME.length));
  if (!token) throw new ApiError(401, "The token is not known.");
  if (store.isExpired(token)) throw new ApiError(401, "The token has expired.");

  const needed = token.kind === "reseller" ? "ResellerAPIKey" : "APIKey";
  if (!access.schemes.includes(needed)) {
    throw new ApiError(
      403,
      token.kind === "reseller"
        ? `${access.operationId} is not part of the reseller API; use a client token.`
        : `${access.operationId} is part of the reseller API; use the reseller's admin-portal token.`,
    );
  }
  if (token.read_only && access.write)
    throw new ApiError(403, `This token is read-only and cannot call ${access.operationId}.`);
  return {
    token,
    clientId: token.kind === "client" ? token.owner_id : undefined,
    resellerId: token.kind === "reseller" ? token.owner_id : undefined,
  };
}

/** Every Authorization header of a request, from the raw headers. */
function authorizationHeaders(rawHeaders: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    if (rawHeaders[i]?.toLowerCase() === "authorization") values.push(rawHeaders[i + 1] as string);
  return values;
}
