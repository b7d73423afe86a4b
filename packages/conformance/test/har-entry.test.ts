// What `observe --record` writes of one exchange, in-process: the entry holds no token (credentials
// as their label or `[credential]`, every text redacted), and an answer that broke HTTP says so.

import { describe, expect, it } from "vitest";
import { INVALID_ANSWER } from "../src/http/har.js";
import { REDACTED } from "../src/shared/redact.js";
import { harEntry, harHeaders } from "../src/traffic/har/entry.js";
import type { PassedExchange } from "../src/traffic/proxy.js";
import { tokenPrefix } from "./token-prefix.js";

const TOKEN = "s3cr3t-token";
const hiding = {
  label: (credential: string) => (credential === TOKEN ? "token 1" : "token ?"),
  redact: (text: string) => text.replaceAll(TOKEN, "[token 1]"),
};

const passed = (more: Partial<PassedExchange["exchange"]> = {}): PassedExchange => ({
  exchange: {
    method: "POST",
    url: `/v1/things?api_key=${TOKEN}&q=${TOKEN}`,
    requestHeaders: { "content-type": "application/json" },
    status: 201,
    responseHeaders: { "content-type": "application/json" },
    body: `{"echo":"${TOKEN}"}`,
    at: Date.parse("2026-01-02T03:04:05.678Z"),
    durationMs: 12.34567,
    ...more,
  },
  httpVersion: "HTTP/1.1",
  requestRawHeaders: [
    "Authorization",
    `${tokenPrefix}${TOKEN}`,
    "X-Api-Key",
    TOKEN,
    "X-Note",
    `about ${TOKEN}`,
  ],
  requestBody: `{"name":"${TOKEN}"}`,
  statusText: "Created",
  responseRawHeaders: ["Content-Type", "application/json"],
});

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("harEntry", { timeout: 30_000 }, () => {
  it("writes an exchange as HAR 1.2 under the upstream's base URL, no token in it", () => {
    const entry = harEntry(passed(), "https://api.example.test/cloud", hiding);
    expect(JSON.stringify(entry)).not.toContain(TOKEN);
    expect(entry.startedDateTime).toBe("2026-01-02T03:04:05.678Z");
    expect(entry.time).toBe(12.346);
    expect(entry.timings).toEqual({ send: 0, wait: 12, receive: 0 });
    expect(entry.request.url).toBe("https://api.example.test/cloud/v1/things?api_key=[token 1]&q=[token 1]");
    expect(entry.request.queryString).toEqual([
      { name: "api_key", value: REDACTED },
      { name: "q", value: "[token 1]" },
    ]);
    expect(entry.request.headers).toEqual([
      { name: "Authorization", value: `${tokenPrefix}[token 1]` },
      { name: "X-Api-Key", value: "[credential]" },
      { name: "X-Note", value: "about [token 1]" },
    ]);
    expect(entry.request.bodySize).toBe(Buffer.byteLength(`{"name":"${TOKEN}"}`));
    expect(entry.request.postData).toEqual({ mimeType: "application/json", text: '{"name":"[token 1]"}' });
    expect(entry.response).toMatchObject({
      status: 201,
      statusText: "Created",
      httpVersion: "HTTP/1.1",
      content: { size: 20, mimeType: "application/json", text: '{"echo":"[token 1]"}' },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
    });
    expect(entry.response.comment).toBeUndefined();
  });

  it("no answer, no body, no request body: status 0, size -1, no text, no postData", () => {
    const entry = harEntry(
      { ...passed({ status: null, body: undefined }), requestBody: undefined },
      "http://127.0.0.1:1",
      hiding,
    );
    expect(entry.response.status).toBe(0);
    expect(entry.response.content).toEqual({ size: -1, mimeType: "application/json" });
    expect(entry.request.bodySize).toBe(0);
    expect("postData" in entry.request).toBe(false);
  });

  it("an answer that broke HTTP says what in response.comment, redacted", () => {
    const entry = harEntry(passed({ invalid: ["one", `two ${TOKEN}`] }), "http://127.0.0.1:1", hiding);
    expect(entry.response.comment).toBe(`${INVALID_ANSWER}one; two [token 1]`);
  });

  it("a credential header without a credential is [credential]", () => {
    expect(harHeaders(["Proxy-Authorization", "Basic", "authorization", ""], hiding)).toEqual([
      { name: "Proxy-Authorization", value: "[credential]" },
      { name: "authorization", value: "[credential]" },
    ]);
  });
});
