// The observing proxy in front of hostile upstreams and disks, made here on loopback: a status line
// no server may send, an early refusal of a large body, a false Content-Encoding, an upstream that
// never answers, a recording that outgrows its bound or its disk. Whatever they do, the client gets
// an answer (the upstream's whenever it sent one), the proxy keeps serving, says what happened once,
// and the reports are written at the end.

import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { createServer as createNetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operationById } from "@platform-api/spec";
import { afterEach, describe, expect, it } from "vitest";
import { offsetList } from "../src/facts/offset.js";
import { specModel } from "../src/facts/spec.js";
import { runVerify, startObserving } from "../src/traffic/commands.js";
import { MAX_RECORDING_BYTES } from "../src/traffic/har-recorder.js";
import { UPSTREAM_TIMEOUT_MS } from "../src/traffic/proxy.js";
import { startObserveCli } from "./observe-cli.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const regions = offsetList(operationById(model, "listRegions"));
const REGIONS = `${regions.operation.path}?${regions.limit.name}=1`;
const ACCOUNT = operationById(model, "getCurrentClient").path;
const KEY = "2971$e0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7c8d9";
const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A raw TCP upstream: `answer` is called once a request's head has arrived (its body is not read). */
async function rawUpstream(answer: (socket: Socket, n: number) => void): Promise<string> {
  const sockets = new Set<Socket>();
  let n = 0;
  const server = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let head = "";
    const onData = (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      socket.pause();
      answer(socket, n++);
    };
    socket.on("data", onData);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  closers.push(
    () =>
      new Promise((done) => {
        for (const s of sockets) s.destroy();
        server.close(done);
      }),
  );
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  closers.push(
    () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(done);
      }),
  );
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a fresh connection; rejects when the connection breaks or after `boundMs`. */
function send(
  url: string,
  options: { method?: string; path: string; body?: Buffer; boundMs?: number },
): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: options.method ?? "GET",
        path: options.path,
        agent: false,
        headers: { authorization: `${tokenPrefix}${KEY}`, "content-type": "application/json" },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    const bound = setTimeout(
      () => req.destroy(new Error(`no answer within ${options.boundMs ?? 20_000} ms`)),
      options.boundMs ?? 20_000,
    );
    req.on("close", () => clearTimeout(bound));
    // The body may be refused before it is whole: what counts is the answer.
    req.on("error", (error) => reject(error));
    req.end(options.body);
  });
}

async function observe(upstream: string, more: Partial<Parameters<typeof startObserving>[0]> = {}) {
  const notices: string[] = [];
  const observing = await startObserving({
    upstream,
    host: "127.0.0.1",
    port: 0,
    env: {},
    onNotice: (line) => notices.push(line),
    ...more,
  });
  closers.push(() => observing.stop());
  return { observing, notices };
}

describe("a status line no server may send", () => {
  it("a reason phrase with a control character, status 000: the client gets an answer, the proxy goes on, says so once", async () => {
    const upstream = await rawUpstream((socket, n) => {
      const line = n % 2 === 0 ? "HTTP/1.1 200 O\x7fK" : "HTTP/1.1 000 Nothing";
      socket.end(
        `${line}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    });
    const { observing, notices } = await observe(upstream);
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await send(observing.url, { path: ACCOUNT }));
    // The reason phrase is advisory (RFC 9112 §4): the answer passes without the control character.
    expect(answers.filter((_, i) => i % 2 === 0).map((a) => [a.status, a.body])).toEqual([
      [200, "{}"],
      [200, "{}"],
      [200, "{}"],
    ]);
    // No status to pass: the proxy's own 502, saying why.
    for (const a of answers.filter((_, i) => i % 2 === 1)) {
      expect(a.status).toBe(502);
      expect(a.headers["x-conformance-observe"]).toBe("invalid-answer");
      expect(a.body).toMatch(/status 000/);
    }
    expect(notices).toHaveLength(2);
    expect(notices.join("\n")).toMatch(/reason phrase/);
    expect(notices.join("\n")).toMatch(/status/);
    await observing.stop();
    // Both are findings: the 000 ones fail the schema result of the operation, with their evidence.
    const schema = observing.judge
      .results({ strict: true })
      .find((r) => r.id === `schema.${operationById(model, "getCurrentClient").operationId}`);
    expect(schema?.status).toBe("failed");
    expect(schema?.reason).toMatch(/000/);
    expect(schema?.reason).toMatch(/reason phrase/);
  }, 60_000);
});

describe("the answer the upstream sent reaches the client", () => {
  // The proxy's next write of the body meets the upstream's reset before the answer is read: Node
  // destroyed the socket with the answer unread (60 of 60 were the proxy's 502 before the fix).
  it("a 256 KB POST refused with 400 before its body was read: every client gets the 400", async () => {
    const upstream = await rawUpstream((socket) => {
      const refusal = '{"message":"no"}';
      socket.end(
        `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${refusal.length}\r\nConnection: close\r\n\r\n${refusal}`,
        // Closed with the body unread: the proxy's next write meets a reset.
        () => socket.destroy(),
      );
    });
    const { observing } = await observe(upstream);
    const body = Buffer.alloc(256 * 1024, "a");
    const outcomes: string[] = [];
    // Ten at a time, 60 in all.
    for (let round = 0; round < 6; round++)
      outcomes.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, () =>
            send(observing.url, { method: "POST", path: ACCOUNT, body }).then(
              (a) => `${a.status} ${a.body}`,
              (error: Error) => `error ${error.message}`,
            ),
          ),
        )),
      );
    expect(outcomes.filter((o) => o !== '400 {"message":"no"}')).toEqual([]);
  }, 120_000);
});

describe("a body its Content-Encoding cannot decode", () => {
  it("a false `Content-Encoding: gzip` on a plain body is a finding with its evidence, not a dropped body", async () => {
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(JSON.stringify({ [regions.pagination.countField]: 0, [regions.pagination.itemsField]: [] }));
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), "observe-gzip-"));
    const har = join(dir, "traffic.har");
    const { observing } = await observe(upstream, { record: har });
    for (let i = 0; i < 3; i++) expect((await send(observing.url, { path: REGIONS })).status).toBe(200);
    await observing.stop();
    const summary = observing.judge.summary();
    expect(summary.dropped.bodies).toBe(0);
    expect(summary.judged).toBe(3);
    const schema = observing.judge
      .results({ strict: true })
      .find((r) => r.id === `schema.${regions.operation.operationId}`);
    expect(schema?.status).toBe("failed");
    expect(schema?.reason).toMatch(/Content-Encoding gzip/);
    expect(schema?.evidence[0]?.excerpt).toContain(regions.pagination.countField);
    // verify of the recording judges it as observe did.
    const verified = await runVerify(
      { har, report: join(dir, "verify"), strict: false },
      { write: () => {}, env: {} },
    );
    const again = verified.report?.scenarios.find((r) => r.id === schema?.id);
    expect(again?.status).toBe("failed");
    expect(again?.reason).toMatch(/Content-Encoding gzip/);
  }, 60_000);
});

describe("an upstream that never answers", () => {
  it("the README states the bound; silence past it (or a lone 100 Continue) is the proxy's 502", async () => {
    expect(README).toContain(`\`UPSTREAM_TIMEOUT_MS\` (${UPSTREAM_TIMEOUT_MS / 1000} s)`);
    const upstream = await rawUpstream((socket, n) => {
      if (n % 2 === 1) socket.write("HTTP/1.1 100 Continue\r\n\r\n");
      // …and nothing more, ever (the test's cleanup closes it).
    });
    const { observing, notices } = await observe(upstream, { upstreamTimeoutMs: 300 });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => send(observing.url, { path: ACCOUNT, boundMs: 30_000 })),
    );
    for (const a of answers) {
      expect(a.status).toBe(502);
      expect(a.headers["x-conformance-observe"]).toBe("no-answer");
      expect(a.body).toMatch(/0\.3 s/);
    }
    expect(notices).toHaveLength(1);
    await observing.stop();
    expect(observing.judge.summary()).toMatchObject({ exchanges: 4, noAnswer: 4 });
  }, 60_000);
});

describe("the recording", () => {
  it("MAX_RECORDING_BYTES is in the README and well below what verify reads; past the bound, recording stops, says so once, the HAR stays whole", async () => {
    expect(README).toContain(`\`MAX_RECORDING_BYTES\` (${MAX_RECORDING_BYTES / 2 ** 20} MiB)`);
    expect(MAX_RECORDING_BYTES).toBeLessThan(400 * 10 ** 6);
    const big = JSON.stringify({ message: "x".repeat(40_000) });
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(big);
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), "observe-cap-"));
    const har = join(dir, "traffic.har");
    const { observing, notices } = await observe(upstream, { record: har, maxRecordingBytes: 200_000 });
    for (let i = 0; i < 10; i++) expect((await send(observing.url, { path: ACCOUNT })).status).toBe(401);
    await observing.stop();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/recording to .* stopped .*MAX_RECORDING_BYTES/);
    expect(statSync(har).size).toBeLessThanOrEqual(200_000);
    const parsed = JSON.parse(readFileSync(har, "utf8"));
    expect(parsed.log.entries.length).toBeGreaterThan(0);
    expect(parsed.log.entries.length).toBeLessThan(10);
    expect(parsed.log.comment).toMatch(/stopped/);
    expect(observing.recording).toMatchObject({ entries: parsed.log.entries.length, complete: false });
    // What was recorded still verifies.
    const verified = await runVerify(
      { har, report: join(dir, "verify"), strict: false },
      { write: () => {}, env: {} },
    );
    expect(verified.report?.traffic?.exchanges).toBe(parsed.log.entries.length);
  }, 60_000);

  it("a disk that refuses every write (--record /dev/full): the proxy goes on, says so once", async () => {
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(401, { "content-type": "application/json" });
        res.end("{}");
      }),
    );
    const { observing, notices } = await observe(upstream, { record: "/dev/full" });
    for (let i = 0; i < 5; i++) expect((await send(observing.url, { path: ACCOUNT })).status).toBe(401);
    await observing.stop();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/ENOSPC/);
    expect(observing.recording?.error).toMatch(/ENOSPC/);
    expect(observing.judge.summary().exchanges).toBe(5);
  }, 60_000);

  it("the CLI: a file size limit reached mid-session (EFBIG): serving goes on, the reports are written, the HAR parses", async () => {
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(401, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "y".repeat(100_000) }));
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), "observe-efbig-"));
    const har = join(dir, "traffic.har");
    // 1 MiB per file (512-byte blocks): the reports fit, the recording does not.
    const observe = await startObserveCli(
      ["--upstream", upstream, "--listen", "127.0.0.1:0", "--record", har, "--report", join(dir, "report")],
      (child) => closers.push(async () => child.kill("SIGKILL")),
      ["sh", "-c", 'ulimit -f 2048 && exec "$0" "$@"'],
    );
    for (let i = 0; i < 20; i++) expect((await send(observe.url, { path: ACCOUNT })).status).toBe(401);
    expect(await observe.stop()).toBe(0);
    expect(observe.output().match(/EFBIG/g)?.length).toBe(2); // once when it happened, once in the summary
    expect(statSync(join(dir, "report", "report.json")).size).toBeGreaterThan(0);
    const parsed = JSON.parse(readFileSync(har, "utf8"));
    expect(parsed.log.entries.length).toBeGreaterThan(0);
    expect(parsed.log.entries.length).toBeLessThan(20);
  }, 120_000);
});
