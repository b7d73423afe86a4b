// The API key must never appear in an error, its serialisation or a log line, whatever fails.
import { inspect } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../src/index.js";
import { KEY, offsetList, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RESELLER = "8812$reseller0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5";
const secretParts = [KEY, RESELLER, KEY.split("$")[1] as string, RESELLER.split("$")[1] as string];

function everythingSaidAbout(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  return [
    String(e),
    e.message,
    e.stack,
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    inspect(e.cause, { depth: 10 }),
  ].join("\n");
}

describe("the API key never leaks", () => {
  it("appears in no error or log line of any failure", async () => {
    server = await startScriptedServer((request, i) => {
      if (request.path.startsWith("/cloud/v1/instances/"))
        return { status: 401, body: { detail: "bad token" } };
      if (request.path === "/cloud/v1/projects") return "reset";
      if (request.path.startsWith("/cloud/v1/tasks/"))
        return {
          body: {
            id: "t",
            task_type: "create_volume",
            state: "ERROR",
            error: "volume_count_limit exceeded by 1",
            created_on: "2026-11-21T14:05:02",
            created_resources: null,
          },
        };
      if (request.path === "/cloud/reseller/v1/limits_request") return { status: 403, body: {} };
      if (request.path === "/streaming/ai/tasks") return { delayMs: 500, body: {} };
      return i % 2 === 0
        ? { status: 429, headers: { "retry-after": "0" }, body: {} }
        : offsetList(3)(request);
    });
    const lines: string[] = [];
    const logger = { warn: (l: string) => lines.push(l), debug: (l: string) => lines.push(l) };
    const client = createClient({
      apiKey: KEY,
      resellerApiKey: RESELLER,
      baseUrl: server.url,
      logger,
      maxRetries: 1,
      timeoutMs: 100,
      retry: { initialDelayMs: 5 },
    });

    const failures = await Promise.all([
      client
        .paginate("/cloud/v1/instances/{project_id}/{region_id}", {
          params: { path: { project_id: 1, region_id: 76 } },
        })
        .toArray()
        .catch((e) => e),
      client
        .paginate("/cloud/reseller/v1/limits_request")
        .toArray()
        .catch((e) => e),
      client.GET("/cloud/v1/projects").catch((e) => e),
      client.GET("/streaming/ai/tasks").catch((e) => e),
      client.waitForTask("t", { pollIntervalMs: 5 }).catch((e) => e),
      client.GET("/cloud/v1/regions", { params: { query: { limit: 5000 } } }).catch((e) => e),
      (async () => createClient({ apiKey: `APIKey ${KEY}` }))().catch((e) => e),
    ]);
    expect(failures.map((f) => f?.name)).toEqual([
      "AuthenticationError",
      "PermissionDeniedError",
      "ConnectionError",
      "TimeoutError",
      "TaskFailedError",
      "ValidationError",
      "ClientConfigError",
    ]);
    // The server did see the keys: the check below is not vacuous.
    expect(server.requests.some((r) => r.headers.authorization === `APIKey ${KEY}`)).toBe(true);
    expect(server.requests.some((r) => r.headers.authorization === `APIKey ${RESELLER}`)).toBe(true);
    const said = [...failures.map(everythingSaidAbout), ...lines].join("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const part of secretParts) expect(said.includes(part), `leaked ${part.slice(0, 4)}…`).toBe(false);
  });
});
