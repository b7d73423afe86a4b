// The client's per-request policy as openapi-fetch middleware. Middleware sees every call (the
// methods and openapi-fetch's `request()` alike) with the path template it names (`schemaPath`),
// so the policy needs no wrapper around openapi-fetch's typed methods and no matching of the final
// URL against the spec. What middleware cannot do stays elsewhere: retries, pacing, timeouts and
// reading the answer whole need to own the fetch itself (openapi-fetch calls `fetch` once per call
// and middleware cannot send again), so they stay in the transport (transport/transport.ts).
import { matchOperation, usesScheme } from "@platform-api/spec/model";
import type { Middleware } from "openapi-fetch";
import { operationFacts, RESELLER_SCHEME, SPEC } from "./operations.js";
import type { Redactor } from "./redact.js";
import { type RequestParams, validateParams } from "./validation.js";

export interface PolicyOptions {
  /** check path and query parameters against the spec before the request leaves */
  validate: boolean;
  /** the token for the operations whose security is the spec's ResellerAPIKey */
  resellerApiKey: string | undefined;
}

/**
 * Parameter checks (a refused one fails the call before it leaves), the reseller token on the
 * operations that admit it (the client token is a default header), and every error of the call
 * redacted of the keys.
 */
export function policyMiddleware(
  { validate, resellerApiKey }: PolicyOptions,
  redactor: Redactor,
): Middleware {
  const resellerAuthorization = resellerApiKey && `APIKey ${resellerApiKey}`;
  return {
    onRequest({ request, schemaPath, params }) {
      const { method } = request;
      // A template names its operation; a concrete path (`/cloud/v1/tasks/5a0a…`) is matched.
      const facts = operationFacts(method, schemaPath);
      if (validate) {
        try {
          validateParams(method, schemaPath, facts, params as RequestParams);
        } catch (error) {
          throw redactor.error(error);
        }
      }
      if (!resellerAuthorization) return;
      const operation = facts ? facts.operation : matchOperation(SPEC, method, schemaPath)?.operation;
      if (operation && usesScheme(operation, RESELLER_SCHEME))
        request.headers.set("Authorization", resellerAuthorization);
    },
    // openapi-fetch hands back only an Error here; anything else thrown goes on as it is.
    onError: ({ error }) => (error instanceof Error ? redactor.error(error) : undefined),
  };
}
