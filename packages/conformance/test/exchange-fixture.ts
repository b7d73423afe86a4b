// An observed exchange for the judge's in-process tests: a 200 with an empty JSON object, sent with
// `token`, changed by `over`.
import type { ObservedExchange } from "../src/shared/exchange.js";
import { tokenPrefix } from "./token-prefix.js";

export function exchangeWith(
  token: string,
  over: Partial<ObservedExchange> & { url: string },
): ObservedExchange {
  return {
    method: "GET",
    requestHeaders: { authorization: `${tokenPrefix}${token}` },
    status: 200,
    responseHeaders: { "content-type": "application/json" },
    body: "{}",
    at: 1_000_000,
    durationMs: 1,
    ...over,
  };
}
