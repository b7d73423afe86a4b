// The HTTP layer's judgement of Retry-After decides a scenario's verdict, so it is pinned here.
import { describe, expect, it, vi } from "vitest";
import { retryAfterMs } from "../src/http.js";
import { createRedactor, redactDeep, toJunit } from "../src/report.js";

describe("retryAfterMs", () => {
  it("reads delta-seconds", () => {
    expect(retryAfterMs("0")).toBe(0);
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs([" 12 "])).toBe(12_000);
  });

  it("reads an HTTP date as the time until it", () => {
    // Date is fixed, so the answer is exact however long this takes on a loaded machine.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-21T10:00:00.000Z") });
    try {
      expect(retryAfterMs("Sat, 21 Nov 2026 10:00:10 GMT")).toBe(10_000);
      expect(retryAfterMs("Sat, 21 Nov 2026 10:00:00 GMT")).toBe(0);
      expect(retryAfterMs("Wed, 21 Oct 2015 07:28:00 GMT")).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses what is neither", () => {
    for (const value of ["soon", "-1", "1.5", "", "10s", "21 Oct 2015"])
      expect(retryAfterMs(value)).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe("reports", () => {
  it("redacts both keys from every string, however deep", () => {
    const redact = createRedactor(["123$secret-token", undefined, "9$reseller-token"]);
    const out = redactDeep({ a: ["x 123$secret-token y"], b: { c: "9$reseller-token!" }, n: 5 }, redact);
    expect(out).toEqual({ a: ["x *** y"], b: { c: "***!" }, n: 5 });
  });

  it("writes well-formed JUnit with escaped text and no control characters", () => {
    const xml = toJunit({
      target: "http://127.0.0.1:1",
      startedAt: "2026-11-21T00:00:00.000Z",
      durationMs: 1200,
      options: {},
      summary: { passed: 0, failed: 1, warned: 0, skipped: 1 },
      scenarios: [
        {
          id: "a.b",
          title: "t",
          severity: "must",
          status: "failed",
          operation: "op",
          reason: 'count <3> & "quoted"\u0007',
          evidence: [{ method: "GET", path: "/x?a=1&b=2", status: 200, excerpt: "" }],
          durationMs: 5,
        },
        {
          id: "c.d",
          title: "t",
          severity: "should",
          status: "skipped",
          operation: "op",
          reason: "why",
          evidence: [],
          durationMs: 0,
        },
      ],
      createdResources: [],
    });
    expect(xml).toContain('<failure message="count &lt;3&gt; &amp; &quot;quoted&quot;">');
    expect(xml).toContain("GET /x?a=1&amp;b=2 -&gt; 200");
    expect(xml).toContain('<skipped message="why"/>');
    expect(xml.includes(String.fromCharCode(7))).toBe(false);
    expect(xml).toMatch(/<testsuites [^>]*tests="2" failures="1"/);
  });
});

describe("a kept-alive connection the server closed", () => {
  it("a GET written on it goes again once on a fresh one; a server that always closes still fails", async () => {
    const { createServer } = await import("node:http");
    const { createHttp } = await import("../src/http.js");
    const { createPacer } = await import("../src/pacer.js");
    let seen = 0;
    let closeEvery = false;
    // The second request of every connection is met by a closed connection (the keep-alive race).
    const server = createServer((req, res) => {
      seen++;
      const n = ((req.socket as { served?: number }).served ?? 0) + 1;
      (req.socket as { served?: number }).served = n;
      if (closeEvery || n > 1) return req.socket.destroy();
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const { port } = server.address() as { port: number };
      const http = createHttp({
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey: "1$abcd",
        pacer: createPacer(1000),
      });
      const call = { method: "GET" as const, path: "/cloud/v1/regions", retry: false };
      expect((await http.send(call)).status).toBe(200);
      expect((await http.send(call)).status).toBe(200);
      expect(seen).toBe(3);
      closeEvery = true;
      await expect(http.send(call)).rejects.toThrow(/no answer/);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});
