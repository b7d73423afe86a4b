// The seed's authentication: `Authorization: APIKey <token>` (the header name in any case, which
// Node already lowers), 401 for a missing, malformed, unknown or expired token, 403 for a valid
// token without permission — a read-only token on a write, a client token on the reseller API,
// a reseller (admin-portal) token on a client operation.

import type { OperationModel, SpecModel } from "@platform-api/spec";
import { ApiError } from "./errors.js";
import type { Caller, Store } from "./store.js";
import type { TokenEntry } from "./world/types.js";

/** What an Authorization header starts with before the token (the seed's scheme, exact case). */
export const SCHEME = "APIKey ";

/** The security scheme (by its name in the spec) that admits each kind of token. */
const SCHEME_OF: Record<TokenEntry["kind"], string> = { client: "APIKey", reseller: "ResellerAPIKey" };

/** Stops the start when the spec names the token kinds' schemes otherwise. */
export function checkSecuritySchemes(model: SpecModel): void {
  const known = new Set(model.securitySchemes.map((s) => s.name));
  const missing = Object.values(SCHEME_OF).filter((name) => !known.has(name));
  if (missing.length > 0)
    throw new Error(
      `The simulator admits tokens by the security schemes ${Object.values(SCHEME_OF).join(" and ")}; the spec has no ${missing.join(", ")} (it has ${[...known].join(", ") || "none"}).`,
    );
}

/**
 * The caller of `operation`, from the request's raw headers (Node keeps only the first of several
 * Authorization headers, so they are read raw); an ApiError (401 or 403) when it may not call it.
 */
export function authenticate(
  rawHeaders: readonly string[],
  store: Store,
  operation: Pick<OperationModel, "operationId" | "security" | "method">,
): Caller {
  const headers = authorizationHeaders(rawHeaders);
  const header = headers.length > 1 ? headers : headers[0];
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

  if (!operation.security.includes(SCHEME_OF[token.kind])) {
    throw new ApiError(
      403,
      token.kind === "reseller"
        ? `${operation.operationId} is not part of the reseller API; use a client token.`
        : `${operation.operationId} is part of the reseller API; use the reseller's admin-portal token.`,
    );
  }
  if (token.read_only && operation.method !== "get")
    throw new ApiError(403, `This token is read-only and cannot call ${operation.operationId}.`);
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
