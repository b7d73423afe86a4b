import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AbortError,
  type ClientOptions,
  ConnectionError,
  createClient,
  paginate,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "../src/index.js";
import { fakeAttemptClock } from "./attempt-clock.js";
import { KEY, type Script, startScriptedServer } from "./scripted-server.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A fetch that never touches the network: with every timer faked, time passes only as the test says. */
function scriptedFetch(answer: (i: number, signal: AbortSignal | null | undefined) => Promise<Response>) {
  let calls = 0;
  const fetch: typeof globalThis.fetch = (_input, init) => answer(calls++, init?.signal);
  return { fetch, calls: () => calls };
}
/** A client on a stub fetch whose 300 ms deadline ends a call long before its ten retries. */
const deadlineClient = (stub: ReturnType<typeof scriptedFetch>) =>
  createClient({
    apiKey: KEY,
    baseUrl: "http://127.0.0.1:9",
    rateLimit: false,
    fetch: stub.fetch,
    maxRetries: 10,
    deadlineMs: 300,
    retry: { initialDelayMs: 100, maxDelayMs: 100 },
  });
const neverAnswered = (signal: AbortSignal | null | undefined) =>
  new Promise<Response>((_resolve, reject) => {
    signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
  });

const regions = { count: 0, results: [] };
// Short delays keep the suite fast; the behaviour under test is which requests happen, in what order.
const fast: ClientOptions = { retry: { initialDelayMs: 20, maxDelayMs: 40 }, rateLimit: false };
const jsonResponse = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
/** A client on a stub fetch, with the suite's short backoff and no pacing. */
const stubClient = (stub: ReturnType<typeof scriptedFetch>) =>
  createClient({ apiKey: KEY, baseUrl: "http://127.0.0.1:9", fetch: stub.fetch, ...fast });
/** The stub's calls once the faked clock has moved on by `ms` (its timers run as it passes). */
async function callsAfter(stub: ReturnType<typeof scriptedFetch>, ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  return stub.calls();
}

async function clientFor(script: Script, options: ClientOptions = {}) {
  const server = await startScriptedServer(script);
  const lines: string[] = [];
  const client = createClient({
    apiKey: KEY,
    baseUrl: server.url,
    ...fast,
    logger: { warn: (l) => lines.push(l) },
    ...options,
  });
  return { client, server, lines };
}

describe("retries", () => {
  // The advised waits run on faked timers (a stub fetch, no socket): the retry must not leave a
  // millisecond early, and a second of real waiting would prove no more.
  it("retries a 429 that has Retry-After after the advised time, then succeeds", async () => {
    vi.useFakeTimers();
    const stub = scriptedFetch(async (i) =>
      i === 0 ? jsonResponse({}, 429, { "retry-after": "1" }) : jsonResponse(regions),
    );
    const outcome = stubClient(stub).GET("/cloud/v1/regions");
    expect(await callsAfter(stub, 999)).toBe(1);
    expect(await callsAfter(stub, 1)).toBe(2);
    const { data, response } = await outcome;
    expect(response.status).toBe(200);
    expect(data).toEqual(regions);
  });

  it("prefers retry-after-ms over Retry-After seconds", async () => {
    vi.useFakeTimers();
    const stub = scriptedFetch(async (i) =>
      i === 0
        ? jsonResponse({}, 429, { "retry-after-ms": "150", "retry-after": "30" })
        : jsonResponse(regions),
    );
    const outcome = stubClient(stub).GET("/cloud/v1/regions");
    expect(await callsAfter(stub, 149)).toBe(1);
    expect(await callsAfter(stub, 1)).toBe(2);
    expect((await outcome).response.status).toBe(200);
  });

  it("reads Retry-After given as an HTTP date", async () => {
    // On a whole second: an HTTP date has no milliseconds, so the advised wait is exactly 2 s.
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 21, 14, 5, 2) });
    const stub = scriptedFetch(async (i) =>
      i === 0
        ? jsonResponse({}, 429, { "retry-after": new Date(Date.now() + 2000).toUTCString() })
        : jsonResponse(regions),
    );
    const outcome = stubClient(stub).GET("/cloud/v1/regions");
    expect(await callsAfter(stub, 1999)).toBe(1);
    expect(await callsAfter(stub, 1)).toBe(2);
    expect((await outcome).response.status).toBe(200);
  });

  it("backs off exponentially on 429 without Retry-After, and retries a POST too (it was not processed)", async () => {
    const { client, server, lines } = await clientFor((_r, i) =>
      i < 2 ? { status: 429, body: {} } : { body: { tasks: [] } },
    );
    const { response } = await client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
      params: { path: { project_id: 1, region_id: 76 } },
      body: { name: "v", source: "new-volume", size: 1 },
    });
    expect(response.status).toBe(200);
    expect(server.requests.map((r) => r.method)).toEqual(["POST", "POST", "POST"]);
    expect(server.requests.map((r) => JSON.parse(r.body))).toEqual([
      { name: "v", source: "new-volume", size: 1 },
      { name: "v", source: "new-volume", size: 1 },
      { name: "v", source: "new-volume", size: 1 },
    ]);
    expect(lines).toEqual([
      expect.stringMatching(
        /^retrying POST \/cloud\/v1\/volumes\/1\/76 after 429 in \d+ ms \(attempt 2 of 3\)$/,
      ),
      expect.stringMatching(
        /^retrying POST \/cloud\/v1\/volumes\/1\/76 after 429 in \d+ ms \(attempt 3 of 3\)$/,
      ),
    ]);
  });

  it("retries a GET after 500, then succeeds", async () => {
    const { client, server } = await clientFor((_r, i) =>
      i === 0 ? { status: 500, body: {} } : { body: regions },
    );
    const { data } = await client.GET("/cloud/v1/regions");
    expect(data).toEqual(regions);
    expect(server.requests).toHaveLength(2);
  });

  it("never retries a POST after a 500: it may have created resources", async () => {
    const { client, server } = await clientFor(() => ({ status: 500, body: { message: "boom" } }));
    const { error, response } = await client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
      params: { path: { project_id: 1, region_id: 76 } },
      body: { name: "v", source: "new-volume", size: 1 },
    });
    expect(response.status).toBe(500);
    expect(error).toEqual({ message: "boom" });
    expect(server.requests).toHaveLength(1);
  });

  it("retries a PUT after a 500 (PUT is idempotent)", async () => {
    const { client, server } = await clientFor((_r, i) =>
      i === 0 ? { status: 500, body: {} } : { status: 204 },
    );
    const { response } = await client.PUT("/storage/notifications/v1/event", {
      body: { name: "reaching_used_space" },
    });
    expect(response.status).toBe(204);
    expect(server.requests.map((r) => r.method)).toEqual(["PUT", "PUT"]);
  });

  it("gives up after maxRetries and returns the last answer to raw calls", async () => {
    const { client, server } = await clientFor(() => ({ status: 500, body: { n: 1 } }), { maxRetries: 3 });
    const { response, error } = await client.GET("/iam/clients/me");
    expect(response.status).toBe(500);
    expect(error).toEqual({ n: 1 });
    expect(server.requests).toHaveLength(4);
  });

  it("does not wait for a Retry-After beyond maxRetryAfterMs", async () => {
    const { client, server, lines } = await clientFor(() => ({
      status: 429,
      headers: { "retry-after": "3600" },
      body: {},
    }));
    const { response } = await client.GET("/iam/clients/me");
    expect(response.status).toBe(429);
    expect(server.requests).toHaveLength(1);
    expect(lines).toEqual([expect.stringContaining("asked to wait 3600000 ms, more than maxRetryAfterMs")]);
  });

  it("retries a GET whose connection was reset, and throws ConnectionError when resets go on", async () => {
    const flaky = await clientFor((_r, i) => (i === 0 ? "reset" : { body: regions }));
    expect((await flaky.client.GET("/cloud/v1/regions")).data).toEqual(regions);
    expect(flaky.server.requests).toHaveLength(2);

    const broken = await clientFor(() => "reset", { maxRetries: 1 });
    const error = await broken.client.GET("/cloud/v1/regions").catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ method: "GET", path: "/cloud/v1/regions", attempts: 2, status: undefined });
    expect(broken.server.requests).toHaveLength(2);
  });

  it("never retries a POST whose connection was lost", async () => {
    const { client, server } = await clientFor(() => "reset");
    const error = await client
      .POST("/cloud/v1/volumes/{project_id}/{region_id}", {
        params: { path: { project_id: 1, region_id: 76 } },
        body: { name: "v", source: "new-volume", size: 1 },
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("times out a slow attempt with TimeoutError, retrying idempotent calls first", async () => {
    const { client, server } = await clientFor(() => "hold", { timeoutMs: 100, maxRetries: 1 });
    fakeAttemptClock();
    const outcome = client.GET("/cloud/v1/regions").catch((e) => e);
    await server.untilRequests(1);
    await vi.advanceTimersByTimeAsync(200);
    await server.untilRequests(2);
    await vi.advanceTimersByTimeAsync(200);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe("GET /cloud/v1/regions got no answer within 100 ms");
    expect(error.attempts).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it("never hands a fired timeout to a later call (controllers are reused only unfired)", async () => {
    const { client, server } = await clientFor((_r, i) => (i === 0 ? "hold" : { body: regions }), {
      timeoutMs: 80,
      maxRetries: 0,
    });
    fakeAttemptClock();
    const first = client.GET("/cloud/v1/regions").catch((e) => e);
    await server.untilRequests(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(await first).toBeInstanceOf(TimeoutError);
    // The clock stands still from here: only a controller that already fired can end these.
    for (let i = 0; i < 5; i++) expect((await client.GET("/cloud/v1/regions")).response.status).toBe(200);
    expect(server.requests).toHaveLength(6);
  });

  it("answers a slow request that arrives within the timeout", async () => {
    const { client } = await clientFor(() => ({ delayMs: 150, body: regions }), { timeoutMs: 30_000 });
    expect((await client.GET("/cloud/v1/regions")).data).toEqual(regions);
  });

  it("stops retrying at the overall deadline, returning the last answer when no time is left to wait", async () => {
    vi.useFakeTimers();
    const stub = scriptedFetch(async () => new Response("{}", { status: 503 }));
    const client = deadlineClient(stub);
    const started = Date.now();
    let ended: number | undefined;
    const outcome = client.GET("/cloud/v1/regions").finally(() => {
      ended = Date.now();
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await outcome).response.status).toBe(503);
    // Waits of 75 to 100 ms: three or four attempts fit in 300 ms, not the eleven allowed.
    expect(stub.calls()).toBeGreaterThanOrEqual(3);
    expect(stub.calls()).toBeLessThanOrEqual(4);
    expect((ended as number) - started).toBeLessThanOrEqual(300);
  });

  it("ends an attempt under way at the overall deadline with TimeoutError naming it", async () => {
    vi.useFakeTimers();
    const stub = scriptedFetch(async (i, signal) =>
      i === 0 ? new Response("{}", { status: 503 }) : neverAnswered(signal),
    );
    const client = deadlineClient(stub);
    const outcome = client.GET("/cloud/v1/regions").catch((e) => e);
    await vi.advanceTimersByTimeAsync(5_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toBe(
      "GET /cloud/v1/regions reached the call's deadline of 300 ms after 2 attempt(s)",
    );
    expect(stub.calls()).toBe(2);
  });

  it("lets an AbortSignal cancel a waiting retry with AbortError", async () => {
    const controller = new AbortController();
    // Aborted when the client says it is about to wait 30 s for its retry: during that wait.
    const { client, server } = await clientFor(
      () => ({ status: 429, headers: { "retry-after": "30" }, body: {} }),
      { logger: { warn: (line) => line.startsWith("retrying") && controller.abort() } },
    );
    const started = Date.now();
    const error = await client.GET("/cloud/v1/regions", { signal: controller.signal }).catch((e) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect(error.attempts).toBe(1);
    // Far below the 30 s wait it cut short, however loaded the machine.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(server.requests).toHaveLength(1);
  });

  it("makes helpers throw RateLimitError with the advised wait once retries are spent", async () => {
    const { client, server } = await clientFor(
      () => ({ status: 429, headers: { "retry-after": "0" }, body: { m: 1 } }),
      {
        maxRetries: 2,
      },
    );
    const error = await paginate(client, "/cloud/v1/regions")
      .toArray()
      .catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, attempts: 3, retryAfterMs: 0, body: { m: 1 } });
    expect(server.requests).toHaveLength(3);
  });

  it("makes helpers throw ServerError after a persistent 500", async () => {
    const { client } = await clientFor(() => ({ status: 500, body: {} }), { maxRetries: 0 });
    await expect(paginate(client, "/cloud/v1/regions").toArray()).rejects.toBeInstanceOf(ServerError);
  });
});
