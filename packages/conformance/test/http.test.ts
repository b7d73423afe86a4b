// The HTTP layer's judgement of Retry-After decides a scenario's verdict, so it is pinned here.
import { describe, expect, it, vi } from "vitest";
import { retryAfterMs } from "../src/http/http.js";
import { createRedactor, redactDeep, toJunit } from "../src/report/report.js";

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
    // The control character is shown as a visible escape, as everywhere a target's text is written.
    expect(xml).toContain('<failure message="count &lt;3&gt; &amp; &quot;quoted&quot;\\x07">');
    expect(xml).toContain("GET /x?a=1&amp;b=2 -&gt; 200");
    expect(xml).toContain('<skipped message="why"/>');
    expect(xml.includes(String.fromCharCode(7))).toBe(false);
    expect(xml).toMatch(/<testsuites [^>]*tests="2" failures="1"/);
  });
});

describe("a kept-alive connection the server closed", () => {
  it("a GET written on it goes again once on a fresh one; a server that always closes still fails", async () => {
    const { createServer } = await import("node:http");
    const { createHttp } = await import("../src/http/http.js");
    const { createPacer } = await import("../src/shared/pacer.js");
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

describe("a request with no answer yet", () => {
  // The notice comes after a fixed delay of fake time: nothing here depends on how fast the machine
  // is. The server holds every request until the test answers it.
  async function heldServer() {
    const { createServer } = await import("node:http");
    const held: import("node:http").ServerResponse[] = [];
    const waiting: (() => void)[] = [];
    const server = createServer((_req, res) => {
      held.push(res);
      for (const done of waiting.splice(0)) done();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    const { port } = server.address() as { port: number };
    return {
      origin: `http://127.0.0.1:${port}`,
      /** Resolves once the server holds a request (real I/O: no timer involved). */
      arrived: () => (held.length > 0 ? Promise.resolve() : new Promise<void>((done) => waiting.push(done))),
      answer: () => held.shift()?.writeHead(200, { "content-type": "application/json" }).end("{}"),
      close: async () => {
        server.closeAllConnections();
        await new Promise((done) => server.close(done));
      },
    };
  }

  async function stalls(
    call: { method: "GET" | "POST"; path: string; retry?: boolean },
    options: { timeoutMs?: number } = {},
  ) {
    const { createHttp, NOTICE_AFTER_MS } = await import("../src/http/http.js");
    const server = await heldServer();
    const notices: { message: string; try: number; tries: number }[] = [];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const http = createHttp({
        baseUrl: server.origin,
        apiKey: "1$abcd",
        pacer: { wait: async () => {} },
        stalled: (stall) => notices.push(stall),
        ...options,
      });
      const sent = http.send(call);
      await server.arrived();
      await vi.advanceTimersByTimeAsync(NOTICE_AFTER_MS - 1);
      const before = notices.length;
      await vi.advanceTimersByTimeAsync(1);
      const after = [...notices];
      server.answer();
      expect((await sent).status).toBe(200);
      await vi.advanceTimersByTimeAsync(60_000);
      return { server, before, after, all: notices };
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  }

  it("says what it waits for after the notice delay, with the figures of the timeout and retries", async () => {
    const { NOTICE_AFTER_MS } = await import("../src/http/http.js");
    expect(NOTICE_AFTER_MS).toBe(3000);
    const { server, before, after, all } = await stalls({ method: "GET", path: "/iam/clients/me" });
    expect(before).toBe(0);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ try: 1, tries: 4 });
    expect(after[0]?.message).toBe(
      `Waiting for GET /iam/clients/me at ${server.origin}: no answer after 3 s; will wait up to 15 s, then retry 3 more times (about 63 s in all).`,
    );
    // Answered: no further notice.
    expect(all).toHaveLength(1);
  });

  it("takes its figures from the request's timeout, and a request that is not retried gives up", async () => {
    const longer = await stalls({ method: "GET", path: "/cloud/v1/regions" }, { timeoutMs: 20_000 });
    expect(longer.after[0]?.message).toBe(
      `Waiting for GET /cloud/v1/regions at ${longer.server.origin}: no answer after 3 s; will wait up to 20 s, then retry 3 more times (about 83 s in all).`,
    );
    const post = await stalls({ method: "POST", path: "/cloud/v1/projects" });
    expect(post.after[0]?.message).toMatch(
      /: no answer after 3 s; will wait up to 15 s, then give up \(about 15 s in all\)\.$/,
    );
    const once = await stalls({ method: "GET", path: "/cloud/v1/projects", retry: false });
    expect(once.after[0]?.message).toMatch(/then give up \(about 15 s in all\)\.$/);
  });

  it("says nothing when the answer comes before the notice delay", async () => {
    const { createHttp, NOTICE_AFTER_MS } = await import("../src/http/http.js");
    const server = await heldServer();
    const notices: unknown[] = [];
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const http = createHttp({
        baseUrl: server.origin,
        apiKey: "1$abcd",
        pacer: { wait: async () => {} },
        stalled: (stall) => notices.push(stall),
      });
      const sent = http.send({ method: "GET", path: "/iam/clients/me" });
      await server.arrived();
      await vi.advanceTimersByTimeAsync(NOTICE_AFTER_MS - 1);
      server.answer();
      expect((await sent).status).toBe(200);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(notices).toEqual([]);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });

  it("gives up saying how many tries it made and how long they took", async () => {
    const { createServer } = await import("node:net");
    const { createHttp } = await import("../src/http/http.js");
    // A port nothing listens on: every try is refused at once.
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, "127.0.0.1", done));
    const { port } = closed.address() as { port: number };
    await new Promise((done) => closed.close(done));
    const http = createHttp({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: "1$abcd",
      pacer: { wait: async () => {} },
      timeScale: 0.001,
    });
    await expect(http.send({ method: "GET", path: "/iam/clients/me" })).rejects.toThrow(
      /^GET \/iam\/clients\/me: no answer after 4 tries in [\d.]+ s \(the last: connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/,
    );
    await expect(http.send({ method: "POST", path: "/cloud/v1/projects" })).rejects.toThrow(
      /: no answer after 1 try in [\d.]+ s \(the last: connect ECONNREFUSED/,
    );
  });

  it("a later try says which it is and how much longer the suite will try", async () => {
    const { stallMessage } = await import("../src/http/http.js");
    const stall = {
      method: "GET",
      url: "/iam/clients/me",
      origin: "http://127.0.0.1:1",
      afterMs: 3000,
      timeoutMs: 15_000,
      pauseMs: 1000,
    };
    expect(stallMessage({ ...stall, try: 2, tries: 4 })).toBe(
      "Waiting for GET /iam/clients/me at http://127.0.0.1:1 (try 2 of 4): no answer after 3 s; will wait up to 15 s, then retry 2 more times (about 44 s more).",
    );
    expect(stallMessage({ ...stall, try: 4, tries: 4 })).toBe(
      "Waiting for GET /iam/clients/me at http://127.0.0.1:1 (try 4 of 4): no answer after 3 s; will wait up to 15 s, then give up (about 12 s more).",
    );
    expect(stallMessage({ ...stall, try: 3, tries: 4 })).toMatch(
      /then retry 1 more time \(about 28 s more\)\.$/,
    );
  });
});
