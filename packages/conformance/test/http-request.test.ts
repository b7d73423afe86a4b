// A call's request as the suite writes it, in-process: its URL under the target's base path, its
// headers and body, which key it carries, and the curl command that names each key's variable.

import { describe, expect, it } from "vitest";
import { offSpec, type Request } from "../src/facts/api.js";
import { curlOfCall, prepared, requestOf, roleOf } from "../src/http/request.js";
import { urlOf } from "../src/http/url.js";
import { tokenPrefix } from "./token-prefix.js";

const keys = { apiKey: "1$client-key", resellerApiKey: "2$reseller-key-longer" };
const call = (more: Partial<Request> = {}): Request => ({ method: "GET", path: "/v1/things", ...more });

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("a call's request", { timeout: 30_000 }, () => {
  it("fills and encodes the path, writes the query (repeated values repeated), under the base path", () => {
    const path = "/v1/things/{thing_id}/parts/{part}";
    expect(
      urlOf("/cloud", { path, params: { thing_id: "a b/c", part: 7 }, query: { q: ["x", 1], n: undefined } }),
    ).toBe("/cloud/v1/things/a%20b%2Fc/parts/7?q=x&q=1");
    expect(urlOf("", { path: "/v1/things", rawQuery: "?cursor=abc&limit=2", query: { ignored: 1 } })).toBe(
      "/v1/things?cursor=abc&limit=2",
    );
    expect(urlOf("", { path: "/v1/things", query: {} })).toBe("/v1/things");
    expect(() => urlOf("", { path })).toThrow(
      "path parameter thing_id of /v1/things/{thing_id}/parts/{part} has no value",
    );
  });

  it("writes the key of the call's role, or the header as given, and a JSON body with its length", () => {
    expect(prepared(call(), keys)).toEqual({
      headers: { Accept: "application/json", Authorization: `${tokenPrefix}1$client-key` },
      payload: undefined,
    });
    expect(prepared(call({ auth: "reseller" }), keys).headers.Authorization).toBe(
      `${tokenPrefix}2$reseller-key-longer`,
    );
    expect(prepared(call({ auth: "reseller" }), { apiKey: "k" }).headers).toEqual({
      Accept: "application/json",
    });
    expect(prepared(call({ auth: "none" }), keys).headers).toEqual({ Accept: "application/json" });
    expect(prepared(call({ auth: { header: "AUTHORIZATION", value: "apikey x" } }), keys).headers).toEqual({
      Accept: "application/json",
      AUTHORIZATION: "apikey x",
    });
    const { headers, payload } = prepared(call({ method: "POST", body: offSpec({ name: "é" }) }), keys);
    expect(payload?.toString()).toBe('{"name":"é"}');
    expect(headers["Content-Type"]).toBe("application/json");
    expect(headers["Content-Length"]).toBe(String(Buffer.byteLength('{"name":"é"}')));
    expect(requestOf(call({ method: "POST", body: { a: 1 } }), keys)).toEqual({
      requestHeaders: {
        accept: "application/json",
        authorization: `${tokenPrefix}1$client-key`,
        "content-type": "application/json",
        "content-length": "7",
      },
      requestBody: '{"a":1}',
    });
  });

  it("names the key a request carries, however its header is written", () => {
    expect(roleOf(call(), keys)).toEqual({ tokenRole: "client" });
    expect(roleOf(call({ auth: "reseller" }), keys)).toEqual({ tokenRole: "reseller" });
    expect(roleOf(call({ auth: "reseller" }), { apiKey: "k" })).toEqual({});
    expect(roleOf(call({ auth: "none" }), keys)).toEqual({});
    expect(
      roleOf(call({ auth: { header: "authorization", value: " Bearer  1$client-key " } }), keys),
    ).toEqual({
      tokenRole: "client",
    });
    expect(
      roleOf(call({ auth: { header: "X-Key", value: `${tokenPrefix}2$reseller-key-longer` } }), keys),
    ).toEqual({
      tokenRole: "reseller",
    });
    expect(roleOf(call({ auth: { header: "authorization", value: `${tokenPrefix}other` } }), keys)).toEqual(
      {},
    );
  });

  it("as curl: each key as its variable, the headers curl writes itself left out", () => {
    const variables = { apiKey: "API_KEY", resellerApiKey: "RESELLER_KEY" };
    const command = curlOfCall(
      call({ method: "POST", auth: "reseller", body: { a: 1 } }),
      "https://api.example.test",
      "/cloud/v1/things",
      keys,
      variables,
    );
    // curlCommand writes the body's Content-Type itself; Accept and Content-Length are curl's own.
    expect(command).toBe(
      `curl -sS -i --path-as-is -X 'POST' 'https://api.example.test/cloud/v1/things' -H "Authorization: ${tokenPrefix}$RESELLER_KEY" -H 'Content-Type: application/json' --data-raw '{"a":1}'`,
    );
  });
});
