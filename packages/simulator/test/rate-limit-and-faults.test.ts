import { loadModel } from "@platform-api/spec";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parseFaults } from "../src/index.js";
import { createTestSimulator, startTestSimulator, type TestSimulator } from "./harness.js";

/** The spec's request rate (x-rate-limits): so many requests per period per client IP. */
const RATE = loadModel().conventions.requestRate;
const PERIOD_MS = RATE.periodSeconds * 1000;

/** Sends `count` GETs at once and returns the answers. */
async function burst(t: TestSimulator, count: number) {
  return Promise.all(Array.from({ length: count }, () => t.call("GET", "/iam/clients/me")));
}

describe("rate limit: the spec's request rate per client IP by default", () => {
  // The limiter counts by the wall clock. Only Date is faked (timers stay real), so a burst lands
  // within one second however long a loaded machine takes to carry it, and time moves only when a
  // test says so: on a busy CI machine a 130-request burst once spread over more than a second,
  // and all 130 were rightly let through. In-process (app.inject, whose peer is 127.0.0.1): the
  // limit counts per client IP, which a socket from this machine would give the same.
  const start = Date.UTC(2026, 10, 21, 12, 0, 0);
  const at = (ms: number) => vi.setSystemTime(start + ms);
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    at(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers the spec's status beyond the limit with a valid Retry-After, and 200 again after the advised wait", async () => {
    const t = await createTestSimulator();
    try {
      const over = Math.ceil(RATE.limit * 0.3);
      const answers = await burst(t, RATE.limit + over);
      const limited = answers.filter((a) => a.status === RATE.exceededStatus);
      expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(RATE.limit);
      expect(limited.length).toBeGreaterThanOrEqual(over);
      const retryAfter = limited[0]?.headers.get("retry-after");
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeLessThanOrEqual(RATE.periodSeconds);
      const period = RATE.periodSeconds === 1 ? "second" : `${RATE.periodSeconds} seconds`;
      expect(limited[0]?.body.message).toContain(`more than ${RATE.limit} per ${period}`);
      at(Number(retryAfter) * 1000 + 50);
      expect((await t.call("GET", "/iam/clients/me")).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("counts any period, not fixed windows: a burst right after a window boundary is still limited", async () => {
    const t = await createTestSimulator({ rateLimit: 20 });
    try {
      // One request opens a fixed window; 19 more fill it near its end; 20 more just after it would
      // all pass a fixed-window counter (39 in about 15% of a period). In the last period there were 20.
      expect((await t.call("GET", "/iam/clients/me")).status).toBe(200);
      at(PERIOD_MS * 0.85);
      expect((await burst(t, 19)).every((a) => a.status === 200)).toBe(true);
      at(PERIOD_MS * 1.05);
      const after = await burst(t, 20);
      expect(after.filter((a) => a.status === 200).length).toBeLessThanOrEqual(3);
    } finally {
      await t.close();
    }
  });

  it("leaves Retry-After out when switched off, and takes another limit", async () => {
    const t = await createTestSimulator({ rateLimit: 20, retryAfter: false });
    try {
      const answers = await burst(t, 30);
      expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(20);
      const limited = answers.filter((a) => a.status === RATE.exceededStatus);
      expect(limited.length).toBeGreaterThanOrEqual(10);
      expect(limited.every((a) => a.headers.get("retry-after") === null)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it("does not limit with rateLimit 0, nor the admin surface", async () => {
    const t = await createTestSimulator({ rateLimit: 0 });
    try {
      expect((await burst(t, RATE.limit + 50)).every((a) => a.status === 200)).toBe(true);
    } finally {
      await t.close();
    }
    const limited = await createTestSimulator({ rateLimit: 5 });
    try {
      const admin = await Promise.all(Array.from({ length: 20 }, () => limited.admin("GET", "/_sim")));
      expect(admin.every((a) => a.status === 200)).toBe(true);
    } finally {
      await limited.close();
    }
  });
});

describe("faults on demand", () => {
  it("parses a fault spec and says what is allowed when it is wrong", () => {
    expect(parseFaults("500:0.1,429:0.05,reset:0.01,latency:20-200")).toEqual({
      statuses: [
        { status: 500, probability: 0.1 },
        { status: 429, probability: 0.05 },
      ],
      reset: 0.01,
      latency: { min: 20, max: 200 },
    });
    expect(() => parseFaults("503:0.1")).toThrow(/unknown kind "503".*Allowed entries/);
    expect(() => parseFaults("500:2")).toThrow(/probability from 0 to 1 \(got "2"\)/);
    expect(() => parseFaults("latency:200-20")).toThrow(/MIN <= MAX/);
    expect(() => parseFaults("500:0.7,429:0.5")).toThrow(/add up to 1.2/);
    expect(() => parseFaults("reset")).toThrow(/not KIND:VALUE/);
  });

  it("injects 500 and 429 (with Retry-After) answers that are valid for every operation", async () => {
    const t = await createTestSimulator({ faults: "500:1" });
    try {
      const answer = await t.call("GET", "/cloud/v1/regions");
      expect(answer.status).toBe(500);
      expect(answer.body.message).toMatch(/Injected fault/);
      t.sim.setFaults("429:1");
      const limited = await t.call("PUT", "/storage/notifications/v1/event", {
        body: { name: "reaching_used_space" },
      });
      expect(limited.status).toBe(429);
      // An injected 429 advises one period of the spec's request rate.
      expect(limited.headers.get("retry-after")).toBe(String(RATE.periodSeconds));
      t.sim.setFaults("");
      expect((await t.call("GET", "/cloud/v1/regions")).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("drops the connection on reset", async () => {
    // A real socket: only a connection can be dropped (app.inject has none).
    const t = await startTestSimulator({ faults: "reset:1", rateLimit: 0 });
    try {
      await expect(t.call("GET", "/cloud/v1/regions")).rejects.toThrow();
    } finally {
      await t.close();
    }
  });

  it("mixes faults at the given rate, and refuses a fault spec it cannot read", async () => {
    const t = await createTestSimulator({ rateLimit: 0 });
    try {
      expect((await t.admin("PUT", "/_sim/faults", { body: { faults: "500:0.5" } })).status).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 200 }, () => t.call("GET", "/cloud/v1/projects")),
      );
      const failed = answers.filter((a) => a.status === 500).length;
      expect(failed).toBeGreaterThan(60);
      expect(failed).toBeLessThan(140);
      expect(answers.every((a) => a.status === 200 || a.status === 500)).toBe(true);
      const bad = await t.admin<{ message: string }>("PUT", "/_sim/faults", { body: { faults: "teapot:1" } });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toMatch(/unknown kind "teapot"/);
    } finally {
      await t.close();
    }
  });

  it("delays answers by the given latency", async () => {
    const t = await createTestSimulator({ faults: "latency:80-90" });
    try {
      const started = performance.now();
      expect((await t.call("GET", "/cloud/v1/regions")).status).toBe(200);
      // A lower bound only: the injected sleep guarantees it on any machine.
      expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    } finally {
      await t.close();
    }
  });
});
