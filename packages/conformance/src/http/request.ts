// A call's request as it is written — headers as written, the key of the call's role, the body as
// JSON — and as the record and a curl command give it back (every key as its variable).

import { authorization } from "@platform-api/spec";
import { OffSpec, type Request } from "../facts/api.js";
import { clientKeyScheme, resellerKeyScheme } from "../facts/tokens.js";
import { curlCommand, headerWord } from "../shared/curl.js";
import { flatHeaders, type ObservedExchange } from "../shared/exchange.js";

/** The run's keys. */
export interface Keys {
  apiKey: string;
  resellerApiKey?: string;
}

/** The environment variables the keys came from: what a curl command names instead of them. */
export interface KeyVariables {
  apiKey: string;
  resellerApiKey: string;
}

/** The request's headers and body as they are written. */
export function prepared(
  call: Request,
  keys: Keys,
): { headers: Record<string, string>; payload: Buffer | undefined } {
  const headers: Record<string, string> = { Accept: "application/json" };
  const auth = call.auth ?? "client";
  if (auth === "client") {
    const scheme = clientKeyScheme();
    headers[scheme.headerName] = authorization(scheme, keys.apiKey);
  } else if (auth === "reseller") {
    const scheme = resellerKeyScheme();
    if (keys.resellerApiKey) headers[scheme.headerName] = authorization(scheme, keys.resellerApiKey);
  } else if (auth !== "none") headers[auth.header] = auth.value;
  const body = call.body instanceof OffSpec ? call.body.value : call.body;
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  if (payload) {
    headers["Content-Type"] = "application/json";
    headers["Content-Length"] = String(payload.length);
  }
  return { headers, payload };
}

/** The request side an exchange records (for one that got no answer too). */
export function requestOf(
  call: Request,
  keys: Keys,
): Pick<ObservedExchange, "requestHeaders" | "requestBody"> {
  const { headers, payload } = prepared(call, keys);
  return { requestHeaders: flatHeaders(headers), requestBody: payload?.toString("utf8") };
}

/** Which of the run's keys the request carries, however its header is written. */
export function roleOf(call: Request, keys: Keys): Pick<ObservedExchange, "tokenRole"> {
  const auth = call.auth ?? "client";
  if (auth === "client") return { tokenRole: "client" };
  if (auth === "reseller") return keys.resellerApiKey ? { tokenRole: "reseller" } : {};
  if (auth === "none") return {};
  const token = /^\s*\S+\s+(.+?)\s*$/.exec(auth.value)?.[1];
  if (token === keys.apiKey) return { tokenRole: "client" };
  if (token !== undefined && token === keys.resellerApiKey) return { tokenRole: "reseller" };
  return {};
}

/** The request as sent to `origin`, as a curl command: every key as "$VARIABLE", the rest as it went. */
export function curlOfCall(
  call: Request,
  origin: string,
  url: string,
  keys: Keys,
  variables: KeyVariables,
): string {
  const { headers, payload } = prepared(call, keys);
  const named = [
    { key: keys.apiKey, variable: variables.apiKey },
    ...(keys.resellerApiKey ? [{ key: keys.resellerApiKey, variable: variables.resellerApiKey }] : []),
  ].sort((a, b) => b.key.length - a.key.length);
  return curlCommand({
    method: call.method,
    url: `${origin}${url}`,
    headers: Object.entries(headers)
      .filter(([name]) => !/^(accept|content-type|content-length)$/i.test(name))
      .map(([name, value]) => headerWord(name, value, named)),
    ...(payload === undefined ? {} : { body: payload.toString("utf8") }),
  });
}
