// Answers that go wrong after their headers: a body that stalls, one that never ends, one too
// large, one that is not JSON. Every call must end, in the documented typed error.
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  BODY_EXCERPT_CHARS,
  ConnectionError,
  createClient,
  DEFAULTS,
  InvalidResponseError,
  paginate,
  ResponseTooLargeError,
  TaskTimeoutError,
  TimeoutError,
  waitForTask,
} from "../src/index.js";
import { createArrivals } from "./arrivals.js";
import { fakeAttemptClock } from "./attempt-clock.js";
import { KEY, type Script, startScriptedServer } from "./scripted-server.js";

afterEach(() => {
  vi.useRealTimers();
});

/** The global fetch, counting the answers whose headers have arrived (`untilHeaders(n)` waits for the nth). */
function watchedFetch() {
  const headers = createArrivals();
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const response = await globalThis.fetch(input, init);
    headers.arrived();
    return response;
  };
  return { fetch, untilHeaders: headers.until };
}

async function clientFor(script: Script, options: Parameters<typeof createClient>[0] = {}) {
  const server = await startScriptedServer(script);
  const watched = watchedFetch();
  const client = createClient({
    apiKey: KEY,
    baseUrl: server.url,
    rateLimit: false,
    maxRetries: 0,
    retry: { initialDelayMs: 10, maxDelayMs: 20 },
    fetch: watched.fetch,
    ...options,
  });
  return { client, server, untilHeaders: watched.untilHeaders };
}

const STALLED = { stall: '{"count":' };
const SLOW = 30_000;

describe("a body that stalls after its headers", () => {
  it(
    "times out with timeoutMs and is retried like an unanswered GET",
    async () => {
      fakeAttemptClock();
      const { client, server, untilHeaders } = await clientFor(() => STALLED, {
        timeoutMs: 1000,
        maxRetries: 1,
      });
      const failure = client.GET("/cloud/v1/regions").catch((e) => e);
      await untilHeaders(1);
      await vi.advanceTimersByTimeAsync(1200);
      await untilHeaders(2);
      await vi.advanceTimersByTimeAsync(1200);
      const error = await failure;
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toBe(
        "GET /cloud/v1/regions: the body of its 200 answer did not arrive within 1000 ms",
      );
      expect(error.attempts).toBe(2);
      expect(server.requests).toHaveLength(2);
    },
    SLOW,
  );

  it(
    "is not retried for a POST (the server may have acted on it)",
    async () => {
      fakeAttemptClock();
      const { client, server, untilHeaders } = await clientFor(() => STALLED, {
        timeoutMs: 1000,
        maxRetries: 2,
      });
      const failure = client
        .POST("/cloud/v1/volumes/{project_id}/{region_id}", {
          params: { path: { project_id: 1, region_id: 76 } },
          body: { name: "v", size: 1 } as never,
        })
        .catch((e) => e);
      await untilHeaders(1);
      await vi.advanceTimersByTimeAsync(1200);
      expect(await failure).toBeInstanceOf(TimeoutError);
      expect(server.requests).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "ends with AbortError when the caller's signal fires during the body",
    async () => {
      const { client, untilHeaders } = await clientFor(() => STALLED);
      const controller = new AbortController();
      const failure = client.GET("/cloud/v1/regions", { signal: controller.signal }).catch((e) => e);
      await untilHeaders(1);
      controller.abort(new Error("caller gave up"));
      const error = await failure;
      expect(error).toBeInstanceOf(AbortError);
      expect(error.cause).toEqual(new Error("caller gave up"));
    },
    SLOW,
  );

  it(
    "ends paginate() at the call's deadline (deadlineMs)",
    async () => {
      fakeAttemptClock();
      const { client, untilHeaders } = await clientFor(() => STALLED, { deadlineMs: 2000 });
      const failure = paginate(client, "/cloud/v1/regions")
        .toArray()
        .catch((e) => e);
      await untilHeaders(1);
      await vi.advanceTimersByTimeAsync(3500);
      const error = await failure;
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toMatch(/reached the call's deadline of 2000 ms/);
    },
    SLOW,
  );

  it(
    "ends paginate() with AbortError when its signal fires during a page's body",
    async () => {
      const { client, untilHeaders } = await clientFor(() => STALLED);
      const controller = new AbortController();
      const failure = paginate(client, "/cloud/v1/regions", { signal: controller.signal })
        .toArray()
        .catch((e) => e);
      await untilHeaders(1);
      controller.abort();
      expect(await failure).toBeInstanceOf(AbortError);
    },
    SLOW,
  );

  it(
    "ends waitForTask at its deadline with TaskTimeoutError",
    async () => {
      // Real time here (waitForTask's deadline is an AbortSignal.timeout): the body never comes,
      // so the outcome is the same however slow the machine is.
      const { client } = await clientFor(() => STALLED);
      const error = await waitForTask(client, "t", { timeoutMs: 300 }).catch((e) => e);
      expect(error).toBeInstanceOf(TaskTimeoutError);
      expect(error.timeoutMs).toBe(300);
    },
    SLOW,
  );
});

describe("a body cut short", () => {
  it("fails as ConnectionError, retried like a lost answer, instead of a bare TypeError", async () => {
    const { client, server } = await clientFor(
      () => ({
        raw: 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"count":',
      }),
      { maxRetries: 1 },
    );
    const error = await client.GET("/cloud/v1/regions").catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toMatch(/^GET \/cloud\/v1\/regions lost the body of its 200 answer: /);
    expect(error.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });
});

describe("a body that never ends", () => {
  it(
    "times out with timeoutMs while chunks keep coming",
    async () => {
      fakeAttemptClock();
      const { client, untilHeaders } = await clientFor(() => ({ drip: " ", everyMs: 20 }), {
        timeoutMs: 1000,
      });
      const failure = client.GET("/cloud/v1/regions").catch((e) => e);
      await untilHeaders(1);
      await vi.advanceTimersByTimeAsync(1200);
      expect(await failure).toBeInstanceOf(TimeoutError);
    },
    SLOW,
  );

  it(
    "is cut at maxResponseBytes, not read to its end",
    async () => {
      const limit = 64 * 1024;
      const chunk = " ".repeat(16 * 1024);
      const { client, server } = await clientFor(() => ({ drip: chunk, everyMs: 0 }), {
        maxResponseBytes: limit,
      });
      const error = await client.GET("/cloud/v1/regions").catch((e) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.limit).toBe(limit);
      expect(error.status).toBe(200);
      expect(error.message).toBe(
        `GET /cloud/v1/regions: its 200 answer is larger than maxResponseBytes (${limit} bytes)`,
      );
      // The socket was closed: the drip stopped long before its own bound.
      await server.close();
      expect(server.written[0]).toBeLessThan(64 * 1024 * 1024);
    },
    SLOW,
  );
});

describe("answers are bounded", () => {
  it.each([200, 404])(
    "refuses a %i whose Content-Length is over the default limit before reading it",
    async (status) => {
      const { client } = await clientFor(() => ({
        stall: "{",
        status,
        headers: { "content-length": String(DEFAULTS.maxResponseBytes + 1) },
      }));
      const error = await client.GET("/cloud/v1/regions").catch((e) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error.status).toBe(status);
      expect(error.limit).toBe(DEFAULTS.maxResponseBytes);
      expect(error.message).toBe(
        `GET /cloud/v1/regions: its ${status} answer declares ${DEFAULTS.maxResponseBytes + 1} bytes, more than maxResponseBytes (${DEFAULTS.maxResponseBytes} bytes)`,
      );
    },
    SLOW,
  );

  it("reads an answer of exactly maxResponseBytes", async () => {
    const body = { count: 0, results: [], pad: "" };
    const size = JSON.stringify(body).length;
    const { client } = await clientFor(() => ({ body: { ...body, pad: "x".repeat(1000) } }), {
      maxResponseBytes: size + 1000,
    });
    const { data } = await client.GET("/cloud/v1/regions");
    expect(data?.count).toBe(0);
  });

  it("refuses a maxResponseBytes that is not a positive integer", () => {
    expect(() => createClient({ apiKey: KEY, maxResponseBytes: 0 })).toThrow(
      "maxResponseBytes: expected an integer above 0, got 0.",
    );
  });
});

describe("a success whose body is not JSON", () => {
  const html = "<html><body><h1>502 Bad Gateway</h1></body></html>";

  it("throws InvalidResponseError naming the status, content type and the body's start", async () => {
    const { client } = await clientFor(() => ({ text: html, headers: { "content-type": "text/html" } }));
    const error = await client.GET("/cloud/v1/regions").catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({
      status: 200,
      method: "GET",
      path: "/cloud/v1/regions",
      contentType: "text/html",
      excerpt: html,
    });
    expect(error.message).toMatch(/^GET \/cloud\/v1\/regions: its 200 answer \(text\/html\) is not JSON: /);
    expect(error.cause).toBeInstanceOf(SyntaxError);
  });

  it("throws it from paginate() too, for a truncated JSON page", async () => {
    const { client } = await clientFor(() => ({
      text: '{"count":',
      headers: { "content-type": "application/json" },
    }));
    const error = await paginate(client, "/cloud/v1/regions")
      .toArray()
      .catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.excerpt).toBe('{"count":');
  });

  it("keeps the excerpt short and never holds the key", async () => {
    const echo = `${"<p>".repeat(10)}token ${KEY} ${encodeURIComponent(KEY)} ${"x".repeat(10_000)}`;
    const { client } = await clientFor(() => ({ text: echo, headers: { "content-type": "text/html" } }));
    const error = await client.GET("/cloud/v1/regions").catch((e) => e);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error.excerpt.length).toBeLessThanOrEqual(BODY_EXCERPT_CHARS);
    expect(error.excerpt).toMatch(/^(<p>){10}token \*\*\* \*\*\* x+/);
    const secret = KEY.slice(KEY.indexOf("$") + 1);
    expect(JSON.stringify(error)).not.toContain(secret);
    expect(String(error.stack)).not.toContain(secret);
  });
});

describe("a body the caller reads as a stream", () => {
  it(
    "is handed on at its headers, unread and unbounded, and the caller's signal still ends it",
    async () => {
      const limit = 1024;
      const { client } = await clientFor(() => ({ drip: "x".repeat(512), everyMs: 0 }), {
        maxResponseBytes: limit,
      });
      const controller = new AbortController();
      const { data, response } = await client.GET("/cloud/v1/regions", {
        parseAs: "stream",
        signal: controller.signal,
      });
      expect(response.status).toBe(200);
      const reader = (data as unknown as ReadableStream<Uint8Array>).getReader();
      let read = 0;
      while (read <= 4 * limit) read += (await reader.read()).value?.byteLength ?? 0;
      controller.abort(new Error("enough"));
      // Chunks already received may still come; then the read fails.
      await expect(
        (async () => {
          for (;;) if ((await reader.read()).done) return "ended";
        })(),
      ).rejects.toThrow();
    },
    SLOW,
  );
});

describe("the answer handed back", () => {
  it.each([
    ["a reason phrase with a control character", "200 O\x7fK", 200, "application/json"],
    ["a status above 599", "600 Weird", 600, "application/json"],
  ])("keeps an answer with %s as it came", async (_what, statusLine, status, type) => {
    const { client } = await clientFor(() => ({
      raw: `HTTP/1.1 ${statusLine}\r\ncontent-type: ${type}\r\ncontent-length: 11\r\nconnection: close\r\n\r\n{"count":0}`,
    }));
    const { data, error, response } = await client.GET("/cloud/v1/regions");
    expect(response.status).toBe(status);
    expect(data ?? error).toEqual({ count: 0 });
  });

  it("keeps its status, headers and URL, and reads as text, JSON or bytes", async () => {
    const { client, server } = await clientFor(() => ({
      body: { count: 0, results: [] },
      headers: { "x-request-id": "r-1" },
    }));
    const { data, response } = await client.GET("/cloud/v1/regions", { params: { query: { limit: 5 } } });
    expect(data).toEqual({ count: 0, results: [] });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("r-1");
    expect(response.url).toBe(`${server.url}/cloud/v1/regions?limit=5`);
    const copy = response.clone();
    expect(await copy.json()).toEqual({ count: 0, results: [] });
    expect(await response.clone().text()).toBe('{"count":0,"results":[]}');
    expect(new TextDecoder().decode(await response.clone().arrayBuffer())).toBe('{"count":0,"results":[]}');
    expect(await (await response.clone().blob()).text()).toBe('{"count":0,"results":[]}');
  });
});
