// The seed's authentication: the token in the header its security scheme names, after the prefix
// the scheme's description shows (`Authorization: APIKey <token>`; both read from the served
// description's model, the header name in any case, which Node already lowers), 401 for a
// missing, malformed, unknown or expired token, 403 for a valid token without permission — a
// read-only token on a write, a client token on the reseller API, a reseller (admin-portal) token
// on a client operation.

import type { IncomingHttpHeaders } from "node:http";
import { type OperationModel, type SpecModel, type TokenScheme, tokenScheme } from "@platform-api/spec";
import { ApiError } from "./errors.js";
import type { Caller, Store } from "./store.js";
import type { TokenEntry } from "./world/types.js";

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
  // A token is read before its kind is known, so both kinds must be sent alike.
  const client = sentAs(model);
  const reseller = tokenScheme(model, SCHEME_OF.reseller);
  if (client.headerName !== reseller.headerName || client.tokenPrefix !== reseller.tokenPrefix)
    throw new Error(
      `The simulator reads every token the one way: the spec sends ${SCHEME_OF.client} as \`${client.headerName}: ${client.tokenPrefix}<token>\` but ${SCHEME_OF.reseller} as \`${reseller.headerName}: ${reseller.tokenPrefix}<token>\`.`,
    );
}

/** How every token is sent (the client token's scheme; checkSecuritySchemes: the reseller's alike). */
export const sentAs = (model: SpecModel): TokenScheme => tokenScheme(model, SCHEME_OF.client);

/** The token a request's header carries after the scheme's prefix (exact case), else undefined. */
export function sentToken(headers: IncomingHttpHeaders, scheme: TokenScheme): string | undefined {
  const header = headers[scheme.headerName.toLowerCase()];
  return typeof header === "string" && header.startsWith(scheme.tokenPrefix)
    ? header.slice(scheme.tokenPrefix.length)
    : undefined;
}

/**
 * The caller of `operation`, from the request's raw headers (Node keeps only the first of several
 * Authorization headers, so they are read raw); an ApiError (401 or 403) when it may not call it.
 */
export function authenticate(
  rawHeaders: readonly string[],
  store: Store,
  operation: Pick<OperationModel, "operationId" | "security" | "method">,
  { headerName, tokenPrefix }: TokenScheme,
): Caller {
  const headers = headerValues(rawHeaders, headerName);
  const header = headers.length > 1 ? headers : headers[0];
  if (header === undefined || header === "")
    throw new ApiError(
      401,
      `The ${headerName} header is missing; send \`${headerName}: ${tokenPrefix}<token>\`.`,
    );
  if (Array.isArray(header)) throw new ApiError(401, `Send one ${headerName} header, not several.`);
  if (
    !header.startsWith(tokenPrefix) ||
    header.length === tokenPrefix.length ||
    /\s/.test(header.slice(tokenPrefix.length))
  ) {
    throw new ApiError(
      401,
      `The ${headerName} header must be the word ${tokenPrefix.trim()}, one space, then the token.`,
    );
  }
  const token = store.token(header.slice(tokenPrefix.length));
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

/** Every value of the named header (in any case) of a request, from the raw headers. */
function headerValues(rawHeaders: readonly string[], name: string): string[] {
  const lower = name.toLowerCase();
  const values: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    if (rawHeaders[i]?.toLowerCase() === lower) values.push(rawHeaders[i + 1] as string);
  return values;
}
