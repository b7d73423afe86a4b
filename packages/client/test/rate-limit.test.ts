import { MODEL } from "@platform-api/spec/generated/model";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient, DEFAULTS, RateLimiter } from "../src/index.js";
import { KEY, startScriptedServer } from "./scripted-server.js";

afterEach(() => {
  vi.useRealTimers();
});

/** Resolution times of `n` acquires started together, on fake timers. */
async function schedule(limiter: RateLimiter, n: number, stepMs = 10, horizonMs = 5_000) {
  const start = Date.now();
  const times: number[] = [];
  for (let i = 0; i < n; i++)
    void Promise.resolve(limiter.acquire()).then(() => times.push(Date.now() - start));
  for (let t = 0; t <= horizonMs && times.length < n; t += stepMs) await vi.advanceTimersByTimeAsync(stepMs);
  return times;
}

describe("RateLimiter", () => {
  it("defaults to the spec's request-rate limit and its period", () => {
    const { limit, periodSeconds } = MODEL.conventions.requestRate;
    expect(DEFAULTS.requestsPerSecond).toBe(limit / periodSeconds);
    expect(DEFAULTS.ratePeriodSeconds).toBe(periodSeconds);
    const limiter = createClient({ apiKey: KEY, baseUrl: "http://127.0.0.1:9" }).rateLimiter;
    expect(limiter).toMatchObject({ requestsPerSecond: limit / periodSeconds, burst: 1, periodSeconds });
  });

  it("keeps to a limit counted over a period longer than a second", async () => {
    // 10 requests per 5 s: evenly paced every 500 ms, and the window of sends spans the 5 s period
    // (a one-second window would hold 2 sends and stall the pacing to 2 per 2 s).
    vi.useFakeTimers();
    const limiter = new RateLimiter({ requestsPerSecond: 2, burst: 1, periodSeconds: 5 }, () => Date.now());
    const times = await schedule(limiter, 11, 10, 10_000);
    expect(times.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => i * 500));
    // The 11th waits until the first send has left the window (5 s plus the two-interval margin).
    expect(times[10]).toBe(6_000);
  });

  it("paces requests evenly at the configured rate, in the order they asked", async () => {
    vi.useFakeTimers();
    const limiter = new RateLimiter({ requestsPerSecond: 10, burst: 1, periodSeconds: 1 }, () => Date.now());
    expect(await schedule(limiter, 5)).toEqual([0, 100, 200, 300, 400]);
  });

  it("lets a burst leave at once after a quiet period", async () => {
    vi.useFakeTimers();
    const limiter = new RateLimiter({ requestsPerSecond: 10, burst: 3, periodSeconds: 1 }, () => Date.now());
    expect(await schedule(limiter, 5)).toEqual([0, 0, 0, 100, 200]);
  });

  it("pauses every caller for the time a 429 advised", async () => {
    vi.useFakeTimers();
    const limiter = new RateLimiter({ requestsPerSecond: 100, burst: 1, periodSeconds: 1 }, () => Date.now());
    limiter.pauseFor(1_000);
    expect(await schedule(limiter, 3)).toEqual([1_000, 1_010, 1_020]);
  });
});

describe("client-side rate limiting over HTTP", () => {
  it("is shared by every call of one client", async () => {
    const server = await startScriptedServer(() => ({ body: { count: 0, results: [] } }));
    // Send times are taken where the limiter hands each request to fetch: arrival times at the server
    // also carry the first request's connection set-up, which under load ate into the spacing.
    const at: number[] = [];
    const timedFetch: typeof fetch = (input, init) => {
      at.push(performance.now());
      return fetch(input, init);
    };
    const client = createClient({
      apiKey: KEY,
      baseUrl: server.url,
      rateLimit: { requestsPerSecond: 20 },
      fetch: timedFetch,
    });
    await Promise.all(Array.from({ length: 10 }, () => client.GET("/cloud/v1/regions")));
    expect(server.requests).toHaveLength(10);
    // 10 requests at 20 per second: 9 intervals of 50 ms between the first and the last; without the
    // limiter all 10 leave within a few ms.
    expect((at[9] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(400);
  });

  it("holds back other callers after a 429 for the advised time", async () => {
    const server = await startScriptedServer((_r, i) =>
      i === 0
        ? { status: 429, headers: { "retry-after": "1" }, body: {} }
        : { body: { count: 0, results: [] } },
    );
    // The client logs its retry right after pausing the limiter: the other calls start then, not
    // after a guess at how long the 429 takes to arrive.
    let paused: () => void = () => {};
    const pausedNow = new Promise<void>((resolve) => {
      paused = resolve;
    });
    const client = createClient({
      apiKey: KEY,
      baseUrl: server.url,
      maxRetries: 1,
      logger: { warn: (line) => line.includes("after 429") && paused() },
    });
    const first = client.GET("/cloud/v1/regions");
    await pausedNow;
    await Promise.all([first, client.GET("/iam/clients/me"), client.GET("/cloud/v1/projects")]);
    const [blocked, ...later] = server.requests;
    expect(later).toHaveLength(3);
    for (const request of later) expect(request.at - (blocked?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("can be turned off", async () => {
    const server = await startScriptedServer(() => ({ body: {} }));
    const client = createClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false });
    expect(client.rateLimiter).toBeUndefined();
  });
});
