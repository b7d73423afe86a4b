// The observing proxy at the level of bytes and sockets: what passes is what was sent, headers as
// written and bodies chunk by chunk; a request goes to the upstream and nowhere else; no answer is a
// 502 of the proxy's own, counted apart; a server echoing the token back leaks it nowhere; the CLI
// starts, stops on SIGINT and refuses what it must.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DEFAULTS as SIMULATOR_DEFAULTS } from "@platform-api/simulator";
import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { echoes, leaks } from "../../client/test/key-forms.js";
import { offsetList } from "../src/facts/offset.js";
import { specModel } from "../src/facts/spec.js";
import { UsageError } from "../src/shared/usage-error.js";
import { listenAddress, runVerify, startObserving } from "../src/traffic/commands.js";
import { loopbackServers } from "./loopback-servers.js";
import { startObserveCli } from "./observe-cli.js";
import { observeRecording } from "./observe-in-process.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const regions = offsetList(operationById(model, "listRegions"));
const REGIONS = regions.operation.path;
const ACCOUNT = operationById(model, "getCurrentClient").path;
const KEY = "2971$e0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7c8d9";
const CLI = new URL("../dist/cli.js", import.meta.url).pathname;

const { listen, closeAfter } = loopbackServers();

interface Raw {
  status: number;
  statusMessage: string;
  rawHeaders: string[];
  body: Buffer;
}

/** One request with header names exactly as given, its answer read whole. */
function send(url: string, options: { method?: string; path: string; headers: string[][]; body?: Buffer }) {
  const target = new URL(url);
  return new Promise<Raw>((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, method: options.method ?? "GET", path: options.path },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? "",
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    for (const [name, value] of options.headers) req.setHeader(name as string, value as string);
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A raw header list without a connection's own headers (and Date, which each hop writes). */
const endToEnd = (raw: string[]) => {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (!["connection", "keep-alive", "date", "host"].includes((raw[i] ?? "").toLowerCase()))
      out.push(raw[i] ?? "", raw[i + 1] ?? "");
  return out;
};

describe("what passes", () => {
  it("a request and its chunked answer pass as written: names' case, repeated headers, body bytes", async () => {
    let arrived: { method?: string; url?: string; rawHeaders: string[]; body: Buffer } | undefined;
    const body = gzipSync(JSON.stringify({ [regions.pagination.countField]: 0 }));
    const upstream = await listen(
      createServer((req: IncomingMessage, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          arrived = {
            method: req.method,
            url: req.url,
            rawHeaders: req.rawHeaders,
            body: Buffer.concat(chunks),
          };
          res.writeHead(200, "Fine Thanks", [
            "Content-Type",
            "application/json",
            "Content-Encoding",
            "gzip",
            "X-Odd-CASE",
            "1",
            "Set-Cookie",
            "a=1",
            "Set-Cookie",
            "b=2",
            "Transfer-Encoding",
            "chunked",
          ]);
          // Three chunks, the next written once the previous one was flushed.
          res.write(body.subarray(0, 5), () =>
            res.write(body.subarray(5, 11), () => res.end(body.subarray(11))),
          );
        });
      }),
    );
    const observing = await startObserving({ upstream, host: "127.0.0.1", port: 0 });
    closeAfter(() => observing.stop());
    const request = {
      method: "POST",
      path: `${REGIONS}?${regions.limit.name}=1&x=%20y`,
      headers: [
        ["AUTHORIZATION", `${tokenPrefix}${KEY}`],
        ["X-Mixed-Case", "v"],
        ["Content-Type", "application/json"],
      ],
      body: Buffer.from('{"a":1}'),
    };
    const proxied = await send(observing.url, request);
    const viaProxy = arrived;
    const direct = await send(upstream, request);
    expect(endToEnd(viaProxy?.rawHeaders ?? [])).toEqual(endToEnd(arrived?.rawHeaders ?? []));
    expect(viaProxy?.rawHeaders).toContain("AUTHORIZATION");
    expect(viaProxy?.url).toBe(arrived?.url);
    expect(viaProxy?.body.equals(Buffer.from('{"a":1}'))).toBe(true);
    expect(proxied.status).toBe(direct.status);
    expect(proxied.statusMessage).toBe("Fine Thanks");
    expect(endToEnd(proxied.rawHeaders)).toEqual(endToEnd(direct.rawHeaders));
    expect(proxied.body.equals(body)).toBe(true);
    await observing.stop();
    expect(observing.judge.summary().exchanges).toBe(1);
  });

  it("judges a gzip answer by its decoded body", async () => {
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
        res.end(
          gzipSync(
            JSON.stringify({ [regions.pagination.countField]: "three", [regions.pagination.itemsField]: [] }),
          ),
        );
      }),
    );
    const observing = await startObserving({ upstream, host: "127.0.0.1", port: 0 });
    closeAfter(() => observing.stop());
    await send(observing.url, {
      path: `${REGIONS}?${regions.limit.name}=1`,
      headers: [["Authorization", `${tokenPrefix}${KEY}`]],
    });
    await observing.stop();
    const schema = observing.judge
      .results({ strict: true })
      .find((r) => r.id === `schema.${regions.operation.operationId}`);
    expect(schema?.status).toBe("failed");
    expect(schema?.reason).toContain(regions.pagination.countField);
  });

  it("a request-target in absolute form goes to the upstream, with the upstream's Host", async () => {
    const seen: { host?: string; url?: string; auth?: string }[] = [];
    const upstream = await listen(
      createServer((req, res) => {
        seen.push({ host: req.headers.host, url: req.url, auth: req.headers.authorization });
        res.writeHead(401, { "content-type": "application/json" });
        res.end("{}");
      }),
    );
    const observing = await startObserving({ upstream, host: "127.0.0.1", port: 0 });
    closeAfter(() => observing.stop());
    await send(observing.url, {
      path: `http://elsewhere.invalid${ACCOUNT}`,
      headers: [["Authorization", `${tokenPrefix}${KEY}`]],
    });
    expect(seen).toEqual([{ host: new URL(upstream).host, url: ACCOUNT, auth: `${tokenPrefix}${KEY}` }]);
  });

  it("a kept-alive upstream connection found closed: a request without a body goes again, fresh", async () => {
    let seen = 0;
    // The second request of every connection meets a closed connection (the keep-alive race).
    const upstream = await listen(
      createServer((req, res) => {
        seen++;
        const socket = req.socket as typeof req.socket & { served?: number };
        socket.served = (socket.served ?? 0) + 1;
        if (socket.served > 1) return socket.destroy();
        res.writeHead(401, { "content-type": "application/json" });
        res.end("{}");
      }),
    );
    const observing = await startObserving({ upstream, host: "127.0.0.1", port: 0 });
    closeAfter(() => observing.stop());
    for (let i = 0; i < 2; i++)
      expect((await send(observing.url, { path: ACCOUNT, headers: [] })).status).toBe(401);
    expect(seen).toBe(3);
    // A body is never sent twice: a POST on a kept-alive connection (after one more GET) gets the
    // proxy's 502.
    expect((await send(observing.url, { path: ACCOUNT, headers: [] })).status).toBe(401);
    const post = await send(observing.url, {
      method: "POST",
      path: ACCOUNT,
      headers: [["Content-Type", "application/json"]],
      body: Buffer.from("{}"),
    });
    expect(post.status).toBe(502);
    await observing.stop();
    expect(seen).toBe(5);
    expect(observing.judge.summary()).toMatchObject({ exchanges: 4, noAnswer: 1 });
  });

  it("keeps a client's idle connection as long as the simulator does, and says so in Keep-Alive", async () => {
    // Node's default of 5 s is within a second of what clients keep (undici: the hint less 1-2 s):
    // on a loaded machine the proxy closed a socket a client was already reusing.
    const upstream = await listen(createServer((_req, res) => res.end("{}")));
    const observing = await startObserving({ upstream, host: "127.0.0.1", port: 0 });
    closeAfter(() => observing.stop());
    const answer = await send(observing.url, { path: ACCOUNT, headers: [] });
    const at = answer.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === "keep-alive");
    const keepAlive = at >= 0 ? answer.rawHeaders[at + 1] : undefined;
    expect(keepAlive).toBe(`timeout=${SIMULATOR_DEFAULTS.keepAliveTimeoutSeconds}`);
  });

  it("no answer from the upstream: a 502 of the proxy's own, counted apart, never judged", async () => {
    const closed = createServer();
    const upstream = await listen(closed);
    await new Promise((done) => closed.close(done));
    const observing = await startObserving({ upstream, host: "127.0.0.1", port: 0 });
    closeAfter(() => observing.stop());
    const answer = await send(observing.url, { path: ACCOUNT, headers: [] });
    expect(answer.status).toBe(502);
    expect(answer.rawHeaders).toContain("no-answer");
    await observing.stop();
    expect(observing.judge.summary()).toMatchObject({ exchanges: 1, judged: 0, noAnswer: 1 });
  });
});

describe("secrets", () => {
  it("a server that echoes the token in every form: it reaches no report, line or recording", async () => {
    let n = 0;
    const upstream = await listen(
      createServer((req, res) => {
        const forms = Object.values(echoes(req.headers.authorization ?? ""));
        const form = forms[n++ % forms.length] ?? "";
        res.writeHead(n % 2 === 0 ? 401 : 200, {
          "content-type": "application/json",
          "x-echo": encodeURIComponent(form),
        });
        res.end(JSON.stringify({ message: `you sent ${form}`, all: forms }));
      }),
    );
    const { dir, lines, url, run, stop } = observeRecording(upstream, "observe-secret-");
    const proxy = await url;
    for (const path of [ACCOUNT, `${REGIONS}?${regions.limit.name}=1`, "/not/described"])
      for (let i = 0; i < 6; i++)
        await send(proxy, { path, headers: [["Authorization", `${tokenPrefix}${KEY}`]] });
    stop();
    const result = await run;
    expect(result.report?.traffic?.exchanges).toBe(18);
    const written = ["report.json", "junit.xml", "report.md", "report.html"].map((f) =>
      readFileSync(join(dir, "report", f), "utf8"),
    );
    const har = readFileSync(join(dir, "traffic.har"), "utf8");
    expect(har).toContain(`${tokenPrefix}[token 1]`);
    for (const text of [lines.join("\n"), har, ...written]) expect(leaks(text, { key: KEY })).toEqual([]);
    // Judged again from the recording: the same verdicts, still no key.
    const verifyLines: string[] = [];
    const verified = await runVerify(
      { har: join(dir, "traffic.har"), report: join(dir, "verify"), strict: false },
      { write: (line) => verifyLines.push(line), env: {} },
    );
    expect(verified.report?.scenarios.map((s) => s.status)).toEqual(
      result.report?.scenarios.map((s) => s.status),
    );
    expect(
      leaks(verifyLines.join("\n") + readFileSync(join(dir, "verify", "report.json"), "utf8"), { key: KEY }),
    ).toEqual([]);
  });

  it("a HAR that holds the token (a browser's) is read, and the token is in no report", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-secret-"));
    const har = join(dir, "browser.har");
    const entry = (path: string, status: number, text: string, host = "https://api.example.com") => ({
      startedDateTime: "2026-11-23T10:00:00.000Z",
      time: 12.5,
      request: {
        method: "GET",
        url: `${host}${path}`,
        headers: [{ name: "authorization", value: `${tokenPrefix}${KEY}` }],
      },
      response: {
        status,
        headers: [{ name: "content-type", value: "application/json" }],
        content: {
          mimeType: "application/json",
          text: Buffer.from(text).toString("base64"),
          encoding: "base64",
        },
      },
    });
    writeFileSync(
      har,
      JSON.stringify({
        log: {
          entries: [
            entry(ACCOUNT, 500, `{"message":"token ${KEY} expired"}`),
            entry(ACCOUNT, 0, ""),
            entry("/favicon.ico", 200, "", "https://elsewhere.example.com"),
          ],
        },
      }),
    );
    const lines: string[] = [];
    const result = await runVerify(
      { har, baseUrl: "https://api.example.com", report: join(dir, "report"), strict: false },
      { write: (line) => lines.push(line), env: {} },
    );
    expect(result.report?.traffic).toMatchObject({ exchanges: 2, judged: 1, noAnswer: 1 });
    expect(result.report?.options.outside).toBe(1);
    expect(
      leaks(lines.join("\n") + readFileSync(join(dir, "report", "report.md"), "utf8"), { key: KEY }),
    ).toEqual([]);
  });

  it("a sanitized HAR (every Authorization header removed) is no request sent without one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-sanitized-"));
    const har = join(dir, "sanitized.har");
    const body = JSON.stringify({ [regions.pagination.countField]: 0, [regions.pagination.itemsField]: [] });
    const entry = {
      startedDateTime: "2026-11-23T10:00:00.000Z",
      time: 3,
      request: {
        method: "GET",
        url: `https://api.example.com${REGIONS}?${regions.limit.name}=1`,
        headers: [],
      },
      response: {
        status: 200,
        headers: [{ name: "content-type", value: "application/json" }],
        content: { text: body },
      },
    };
    writeFileSync(har, JSON.stringify({ log: { entries: [entry] } }));
    const lines: string[] = [];
    const result = await runVerify(
      { har, baseUrl: "https://api.example.com", report: join(dir, "report"), strict: true },
      { write: (line) => lines.push(line), env: {} },
    );
    expect(result.exitCode).toBe(0);
    const missing = result.report?.scenarios.find(
      (s) => s.id === `auth.missing-header.${regions.operation.operationId}`,
    );
    expect(missing?.status).toBe("skipped");
    expect(lines.join("\n")).toMatch(/no Authorization header .*sanitized/);
  });
});

describe("usage", () => {
  it("refuses a listen address other than loopback unless allowed, and says why", () => {
    expect(() => listenAddress("0.0.0.0:4030", false)).toThrow(UsageError);
    expect(() => listenAddress("0.0.0.0:4030", false)).toThrow(/not loopback.*--allow-remote-listen/s);
    expect(listenAddress("0.0.0.0:4030", true)).toEqual({ host: "0.0.0.0", port: 4030 });
    expect(listenAddress("[::1]:0", false)).toEqual({ host: "::1", port: 0 });
    expect(listenAddress("4031", false)).toEqual({ host: "127.0.0.1", port: 4031 });
    expect(() => listenAddress("here", false)).toThrow(/host:port/);
  });

  it("verify: a file that is not a HAR, or one that holds nothing described, exits 2 saying what", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-usage-"));
    writeFileSync(join(dir, "x.har"), '{"entries": []}');
    const lines: string[] = [];
    const bad = await runVerify(
      { har: join(dir, "x.har"), report: dir, strict: false },
      { write: (l) => lines.push(l) },
    );
    expect(bad.exitCode).toBe(2);
    expect(lines.join("\n")).toMatch(/no log\.entries array/);
    writeFileSync(join(dir, "y.har"), '{"log": {"entries": []}}');
    const empty = await runVerify(
      { har: join(dir, "y.har"), report: dir, strict: false },
      { write: (l) => lines.push(l) },
    );
    expect(empty.exitCode).toBe(2);
    expect(lines.join("\n")).toMatch(/nothing was judged/);
    expect(lines.join("\n")).toMatch(/NOTHING JUDGED/);
    expect(readFileSync(join(dir, "report.html"), "utf8")).toContain("<strong>NOTHING JUDGED</strong>");
    expect(lines.join("\n")).not.toMatch(/ CONFORMANT/);
  });

  it("the CLI: observe starts, passes a call, stops on SIGINT and writes its reports", async () => {
    const upstream = await listen(
      createServer((_req, res) => {
        res.writeHead(401, { "content-type": "application/json" });
        res.end('{"message":"who are you"}');
      }),
    );
    const dir = mkdtempSync(join(tmpdir(), "observe-cli-"));
    const observe = await startObserveCli(
      ["--upstream", upstream, "--listen", "127.0.0.1:0", "--report", dir],
      (child) => closeAfter(async () => child.kill("SIGKILL")),
    );
    const answer = await send(observe.url, { path: ACCOUNT, headers: [] });
    expect(answer.status).toBe(401);
    expect(await observe.stop()).toBe(0);
    expect(observe.output()).toMatch(/stopped \(SIGINT\)/);
    expect(observe.output()).toMatch(/CONFORMANT/);
    const report = JSON.parse(readFileSync(join(dir, "report.json"), "utf8"));
    expect(
      report.scenarios.find((s: { id: string }) => s.id === "auth.missing-header.getCurrentClient").status,
    ).toBe("passed");
  });

  it("the CLI: a listen address other than loopback exits 2 before listening", async () => {
    const child = spawn(
      process.execPath,
      [CLI, "observe", "--upstream", "http://127.0.0.1:9", "--listen", "0.0.0.0:0"],
      {
        env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    const code = await new Promise<number | null>((done) => child.once("close", done));
    expect(code).toBe(2);
    expect(out).toMatch(/not loopback/);
  });
});
