// What the client logs at each logLevel, and its one warning about a key in a browser page.
import { describe, expect, it, vi } from "vitest";
import { ClientConfigError, createClient } from "../src/index.js";
import { KEY, offsetList, startScriptedServer } from "./scripted-server.js";

/** A logger keeping every line by level. */
const recorder = () => {
  const lines: { warn: string[]; debug: string[] } = { warn: [], debug: [] };
  return {
    lines,
    logger: { warn: (l: string) => lines.warn.push(l), debug: (l: string) => lines.debug.push(l) },
  };
};

/** A server answering 429 to the first request, then the list. */
function busyOnce() {
  return startScriptedServer((request, i) =>
    i === 0 ? { status: 429, headers: { "retry-after": "0" }, body: {} } : offsetList(2)(request),
  );
}

describe("logLevel", () => {
  it('"debug" logs one line per request and one per answer: method, URL, status, duration, attempt', async () => {
    const { url } = await busyOnce();
    const { lines, logger } = recorder();
    const client = createClient({ apiKey: KEY, baseUrl: url, rateLimit: false, logger, logLevel: "debug" });
    await client.GET("/cloud/v1/regions", { params: { query: { limit: 2 } } });
    const called = `GET ${url}/cloud/v1/regions?limit=2`;
    expect(lines.debug.map((l) => l.replace(/ in \d+ ms/, " in N ms"))).toEqual([
      `request ${called} (attempt 1 of 3)`,
      `answer ${called}: 429 in N ms (attempt 1 of 3)`,
      `request ${called} (attempt 2 of 3)`,
      `answer ${called}: 200 in N ms (attempt 2 of 3)`,
    ]);
    // The retry's warning still comes at this level.
    expect(lines.warn).toHaveLength(1);
  });

  it('"debug" names the error of an attempt that got no answer', async () => {
    const server = await startScriptedServer(() => "reset");
    const { lines, logger } = recorder();
    const client = createClient({
      apiKey: KEY,
      baseUrl: server.url,
      maxRetries: 0,
      logger,
      logLevel: "debug",
    });
    await client.GET("/cloud/v1/regions").catch(() => {});
    expect(lines.debug[1]).toMatch(
      /^answer GET http:\/\/127\.0\.0\.1:\d+\/cloud\/v1\/regions: none \(ConnectionError\) in \d+ ms \(attempt 1 of 1\)$/,
    );
  });

  it('"warn" (the default) logs only the retries; "off" logs nothing', async () => {
    // Each client's first request gets a 429, so each has one retry to tell of.
    const busy = new Set<string>();
    const server = await startScriptedServer((request) => {
      const who = String(request.headers["x-client"]);
      if (busy.has(who)) return offsetList(1)(request);
      busy.add(who);
      return { status: 429, headers: { "retry-after": "0" }, body: {} };
    });
    const counts: Record<string, [number, number]> = {};
    for (const logLevel of [undefined, "warn", "off"] as const) {
      const { lines, logger } = recorder();
      const name = String(logLevel);
      const options = {
        apiKey: KEY,
        baseUrl: server.url,
        rateLimit: false as const,
        headers: { "x-client": name },
      };
      await createClient({ ...options, logger, logLevel }).GET("/cloud/v1/regions");
      counts[name] = [lines.warn.length, lines.debug.length];
    }
    expect(counts).toEqual({ undefined: [1, 0], warn: [1, 0], off: [0, 0] });
  });

  it("logs to the console when a level is given without a logger", async () => {
    const server = await startScriptedServer(offsetList(1));
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {});
    const client = createClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false, logLevel: "debug" });
    await client.GET("/cloud/v1/regions");
    expect(debug).toHaveBeenCalledTimes(2);
  });

  it("refuses a level it does not know, naming the ones it does", () => {
    expect(() => createClient({ apiKey: KEY, logLevel: "verbose" as never })).toThrow(
      new ClientConfigError("logLevel", 'expected one of debug, warn, off, got "verbose".'),
    );
  });
});
