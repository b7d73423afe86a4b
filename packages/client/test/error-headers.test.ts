// An error about an answer carries that answer's headers (a request id, a rate-limit header) for
// the caller to act on or report, in a form that serialises and is redacted like the rest.
import { describe, expect, it } from "vitest";
import { ApiError, createClient, paginate, RedirectError } from "../src/index.js";
import { KEY, type Script, startScriptedServer } from "./scripted-server.js";

async function clientFor(script: Script) {
  const server = await startScriptedServer(script);
  return createClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false, maxRetries: 0 });
}

describe("ApiError.headers", () => {
  it("holds the failed answer's headers, lower-case, and shows them in its JSON", async () => {
    const client = await clientFor(() => ({
      status: 404,
      headers: { "X-Request-Id": "req-42", "Set-Cookie": "a=1" },
      body: { detail: "no such region" },
    }));
    const error = await paginate(client, "/cloud/v1/regions")
      .toArray()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.headers).toMatchObject({
      "x-request-id": "req-42",
      "set-cookie": "a=1",
      "content-type": "application/json",
    });
    expect(JSON.parse(JSON.stringify(error)).headers["x-request-id"]).toBe("req-42");
  });

  it("joins a header the answer repeats, as Headers.get does", async () => {
    const client = await clientFor(() => ({
      raw: "HTTP/1.1 500 Internal Server Error\r\nX-Trace: a\r\nX-Trace: b\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    }));
    const error = await paginate(client, "/cloud/v1/regions")
      .toArray()
      .catch((e) => e);
    expect(error.status).toBe(500);
    expect(error.headers["x-trace"]).toBe("a, b");
  });

  it("holds a redirect's headers, and none when no answer came", async () => {
    const client = await clientFor((request) =>
      request.path === "/cloud/v1/regions"
        ? { status: 301, headers: { location: "https://elsewhere.example/", "x-hop": "1" } }
        : "reset",
    );
    const redirected = await client.GET("/cloud/v1/regions").catch((e) => e);
    expect(redirected).toBeInstanceOf(RedirectError);
    expect(redirected.headers).toMatchObject({ location: "https://elsewhere.example/", "x-hop": "1" });
    const lost = await client.GET("/cloud/v1/projects").catch((e) => e);
    expect(lost.name).toBe("ConnectionError");
    expect(lost.headers).toBeUndefined();
  });
});
