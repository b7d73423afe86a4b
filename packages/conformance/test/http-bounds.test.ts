// The suite's HTTP layer is bounded as observe's proxy is: an answer larger than the byte cap is cut
// there (its socket destroyed), and an exchange that outlasts its deadline is ended, however slowly
// the bytes keep coming. The servers here never finish on their own, so the bound is the only way a
// test ends: nothing depends on how fast the machine is. Loopback only.

import { mkdtempSync } from "node:fs";
import { createServer, get as httpGet, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runConformance } from "../src/active/run.js";
import { DEFAULTS } from "../src/cli/options.js";
import { createHttp, NoAnswerError } from "../src/http/http.js";
import type { Evidence } from "../src/shared/context.js";
import type { ObservedExchange } from "../src/shared/exchange.js";
import { MAX_JUDGED_BODY_BYTES, startProxy } from "../src/traffic/proxy.js";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

async function serve(
  answer: (res: ServerResponse) => void,
  host = "127.0.0.1",
): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = createServer((_req, res) => {
    requests++;
    answer(res);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, host, done));
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host;
  return { url: `http://${shown}:${port}`, requests: () => requests };
}

/** Writes JSON-looking bytes until the client goes away: an answer without an end. */
function endless(res: ServerResponse) {
  res.writeHead(200, { "content-type": "application/json" });
  const chunk = Buffer.alloc(64 * 1024, "a");
  res.write('{"a":"');
  const more = () => {
    if (res.destroyed) return;
    while (res.write(chunk)) if (res.destroyed) return;
    res.once("drain", more);
  };
  more();
}

/** Headers, then a byte now and then, never the end: a socket that is never idle for long. */
function trickling(res: ServerResponse) {
  res.writeHead(200, { "content-type": "application/json" });
  res.write("[");
  const timer = setInterval(() => res.write(" "), 20);
  res.on("close", () => clearInterval(timer));
}

function client(url: string, more: { maxBodyBytes?: number; deadlineMs?: number } = {}) {
  const exchanges: ObservedExchange[] = [];
  const evidence: Evidence[] = [];
  const http = createHttp({
    baseUrl: url,
    apiKey: "1$abcdefgh",
    pacer: { wait: async () => {} },
    exchanged: (e) => exchanges.push(e),
    record: (e) => evidence.push(e),
    timeScale: 0.001,
    ...more,
  });
  return { http, exchanges, evidence };
}

describe("an answer larger than the byte cap", () => {
  it("is cut at the cap (the socket destroyed), and ends in an error that says so, in the evidence too", async () => {
    const server = await serve(endless);
    const cap = 1024 * 1024;
    const { http, exchanges, evidence } = client(server.url, { maxBodyBytes: cap });
    const sent = http.send({ method: "GET", path: "/cloud/v1/regions" });
    await expect(sent).rejects.toBeInstanceOf(NoAnswerError);
    await expect(sent).rejects.toThrow(`answer larger than ${cap} bytes: cut, not judged as JSON`);
    // An answer came: it is not sent again (it would be as large again).
    expect(server.requests()).toBe(1);
    expect(exchanges).toHaveLength(1);
    // The judge counts it as a body it did not read (as observe does), never as a conformant answer.
    expect(exchanges[0]).toMatchObject({ status: 200, body: undefined });
    expect(exchanges[0]?.error).toContain(`larger than ${cap} bytes`);
    expect(evidence[0]?.status).toBe(200);
    expect(evidence[0]?.excerpt).toContain(`answer larger than ${cap} bytes: cut, not judged as JSON`);
  }, 30_000);

  it("a 2 MB answer against a 1 MB cap is cut too; one below the cap is read whole", async () => {
    const big = await serve((res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(`"${"b".repeat(2 * 1024 * 1024)}"`),
    );
    await expect(
      client(big.url, { maxBodyBytes: 1024 * 1024 }).http.send({ method: "GET", path: "/cloud/v1/regions" }),
    ).rejects.toThrow(/answer larger than 1048576 bytes/);
    const small = await serve((res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(`"${"b".repeat(1000)}"`),
    );
    const answer = await client(small.url, { maxBodyBytes: 1024 * 1024 }).http.send({
      method: "GET",
      path: "/cloud/v1/regions",
    });
    expect(answer.text).toHaveLength(1002);
  }, 30_000);

  it("by default is the bound observe judges bodies to (one constant)", async () => {
    const { MAX_ANSWER_BYTES } = await import("../src/http/http.js");
    expect(MAX_ANSWER_BYTES).toBe(MAX_JUDGED_BODY_BYTES);
  });
});

describe("a run whose target answers without end", () => {
  it("stops at discovery: exit 2, saying the answer was larger than the suite reads", async () => {
    const server = await serve(endless);
    const lines: string[] = [];
    const result = await runConformance(
      { ...DEFAULTS, only: [], target: server.url, report: mkdtempSync(join(tmpdir(), "http-bounds-")) },
      {
        write: (line) => lines.push(line),
        env: { GCORE_API_KEY: "4122$http-bounds-test-key" },
        notice: () => {},
      },
    );
    expect(result.exitCode).toBe(2);
    expect(lines.join("\n")).toMatch(
      /answered GET \/iam\/clients\/me: answer larger than 8388608 bytes: cut, not judged as JSON \(status 200\); .*Is the URL the API's base URL\?/,
    );
    expect(server.requests()).toBe(1);
  }, 60_000);
});

describe("an exchange that outlasts its deadline", () => {
  it("a body trickling a byte at a time ends at the deadline, with an error that says so", async () => {
    const server = await serve(trickling);
    const { http, exchanges, evidence } = client(server.url, { deadlineMs: 300 });
    const sent = http.send({ method: "GET", path: "/cloud/v1/regions", retry: false });
    await expect(sent).rejects.toBeInstanceOf(NoAnswerError);
    await expect(sent).rejects.toThrow(/the exchange passed its deadline of 0\.3 s \(headers and body\)/);
    expect(exchanges[0]?.error).toMatch(/deadline/);
    expect(evidence[0]?.excerpt).toMatch(/deadline/);
  }, 30_000);

  it("a server that never answers at all ends at the deadline too, below the idle timeout", async () => {
    const server = await serve(() => {});
    const { http } = client(server.url, { deadlineMs: 300 });
    await expect(http.send({ method: "GET", path: "/cloud/v1/regions", retry: false })).rejects.toThrow(
      /deadline of 0\.3 s/,
    );
  }, 30_000);
});

const ipv6 = Object.values(networkInterfaces()).some((list) =>
  list?.some((i) => i.family === "IPv6" && i.internal && i.address === "::1"),
);

describe("an IPv6 target", () => {
  it.skipIf(!ipv6)(
    "http://[::1]:port is reached (the brackets are the URL's, not the host's)",
    async () => {
      const server = await serve(
        (res) => res.writeHead(200, { "content-type": "application/json" }).end("[]"),
        "::1",
      );
      const answer = await client(server.url).http.send({ method: "GET", path: "/cloud/v1/regions" });
      expect(answer.status).toBe(200);
    },
    30_000,
  );

  it.skipIf(!ipv6)(
    "observe's proxy reaches an upstream at http://[::1]:port",
    async () => {
      const server = await serve(
        (res) => res.writeHead(200, { "content-type": "application/json" }).end("[]"),
        "::1",
      );
      const passed: number[] = [];
      const proxy = await startProxy({
        upstream: server.url,
        host: "127.0.0.1",
        port: 0,
        onExchange: (p) => passed.push(p.exchange.status ?? 0),
      });
      try {
        const status = await new Promise<number>((resolve, reject) =>
          httpGet(`${proxy.url}/cloud/v1/regions`, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          }).on("error", reject),
        );
        expect(status).toBe(200);
      } finally {
        await proxy.close(0);
      }
      expect(passed).toEqual([200]);
    },
    30_000,
  );
});
