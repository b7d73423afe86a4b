// The API key must never appear in an error, its serialisation or a log line, whatever fails, and
// whatever form a server echoes it back in.
import { inspect } from "node:util";
import { MODEL } from "@platform-api/spec/generated/model";
import { tokenScheme } from "@platform-api/spec/model";
import { describe, expect, it } from "vitest";
import { createClient, paginate, waitForTask } from "../src/index.js";
import { echoes, leaks } from "./key-forms.js";
import { KEY, offsetList, type Reply, startScriptedServer } from "./scripted-server.js";

// Random after the `$`, as real tokens are: a word there ("reseller…") would be found in ordinary text.
const RESELLER = "8812$9f3b27ac51d04e6b8a7c2e1f0d9c8b7a6f5e4d3c";
const { tokenPrefix } = tokenScheme(MODEL, "APIKey");

function everythingSaidAbout(error: unknown): string {
  const e = error as Error & { cause?: unknown };
  return [
    String(e),
    e.message,
    e.stack,
    JSON.stringify(e),
    inspect(e, { depth: 10, showHidden: true }),
    inspect(e.cause, { depth: 10, showHidden: true }),
  ].join("\n");
}

function expectNoKey(said: string, keys: Record<string, string>) {
  expect(leaks(said, keys)).toEqual([]);
}

describe("the API key never leaks", () => {
  it("appears in no error or log line of any failure", async () => {
    const server = await startScriptedServer((request, i) => {
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
      // Never answered (held until the server closes): the only way to a TimeoutError that does
      // not race with anything.
      if (request.path === "/streaming/ai/tasks") return "hold";
      return i % 2 === 0
        ? { status: 429, headers: { "retry-after": "0" }, body: {} }
        : offsetList(3)(request);
    });
    const lines: string[] = [];
    const logger = { warn: (l: string) => lines.push(l), debug: (l: string) => lines.push(l) };
    const options = {
      apiKey: KEY,
      resellerApiKey: RESELLER,
      baseUrl: server.url,
      logger,
      // Every line the client can write: the debug lines of every request and answer too.
      logLevel: "debug" as const,
      retry: { initialDelayMs: 5 },
    };
    // Every answered call has the default 30 s attempt timeout: a loaded machine never turns an
    // answer into a TimeoutError. Only the call that is never answered has a short one: nothing
    // ever answers it, so it ends in a TimeoutError however short, and the test waits that long.
    const client = createClient({ ...options, maxRetries: 1 });
    const unanswered = createClient({ ...options, maxRetries: 0, timeoutMs: 100 });

    const failures = await Promise.all([
      paginate(client, "/cloud/v1/instances/{project_id}/{region_id}", {
        params: { path: { project_id: 1, region_id: 76 } },
      })
        .toArray()
        .catch((e) => e),
      paginate(client, "/cloud/reseller/v1/limits_request")
        .toArray()
        .catch((e) => e),
      client.GET("/cloud/v1/projects").catch((e) => e),
      unanswered.GET("/streaming/ai/tasks").catch((e) => e),
      waitForTask(client, "t", { pollIntervalMs: 5 }).catch((e) => e),
      client.GET("/cloud/v1/regions", { params: { query: { limit: 5000 } } }).catch((e) => e),
      (async () => createClient({ apiKey: `${tokenPrefix}${KEY}` }))().catch((e) => e),
      // The key given where the base URL belongs: the message must not quote it.
      (async () => createClient({ apiKey: KEY, baseUrl: KEY }))().catch((e) => e),
      (async () =>
        createClient({ apiKey: KEY, baseUrl: `https://x/?k=${KEY}`, maxRetries: KEY as never }))().catch(
        (e) => e,
      ),
    ]);
    expect(failures.map((f) => f?.name)).toEqual([
      "AuthenticationError",
      "PermissionDeniedError",
      "ConnectionError",
      "TimeoutError",
      "TaskFailedError",
      "ValidationError",
      "ClientConfigError",
      "ClientConfigError",
      "ClientConfigError",
    ]);
    // The server did see the keys: the check below is not vacuous.
    expect(server.requests.some((r) => r.headers.authorization === `${tokenPrefix}${KEY}`)).toBe(true);
    expect(server.requests.some((r) => r.headers.authorization === `${tokenPrefix}${RESELLER}`)).toBe(true);
    expect(lines.length).toBeGreaterThan(0);
    expectNoKey([...failures.map(everythingSaidAbout), ...lines].join("\n"), {
      "client key": KEY,
      "reseller key": RESELLER,
    });
  });

  it("is redacted from errors when the server echoes it back in any form", async () => {
    // The form to echo travels in a header of each client; the server answers every request with
    // it in the error body, as JSON or text, and in a header; the first request of each call gets a
    // 429 (for a log line).
    const calls = new Set<string>();
    const server = await startScriptedServer((request): Reply => {
      const header = String(request.headers.authorization);
      const form = echoes(header)[String(request.headers["x-form"])] ?? "";
      const headers = { "x-echo": form, "www-authenticate": `${tokenPrefix}realm="${header}"` };
      const call = `${request.headers["x-form"]} ${request.headers["x-as"]} ${request.path}`;
      if (!calls.has(call)) {
        calls.add(call);
        return { status: 429, headers: { ...headers, "retry-after": "0" }, body: { echo: form } };
      }
      if (request.path.startsWith("/cloud/v1/tasks/"))
        return {
          headers,
          body: {
            id: "t",
            task_type: "create_volume",
            state: "ERROR",
            error: `token ${form} has no quota`,
            created_on: "2026-11-21T14:05:02",
            created_resources: null,
            [form]: form,
          },
        };
      const status = request.path === "/cloud/v1/projects" ? 500 : 401;
      if (request.headers["x-as"] === "text")
        return { status, headers, text: `Unauthorized: ${form} is not a valid token` };
      return {
        status,
        headers,
        body: { detail: `bad token ${form}`, nested: [{ token: form, [form]: [form] }] },
      };
    });
    const lines: string[] = [];
    const said: string[] = [];
    const redacted: string[] = [];
    for (const form of Object.keys(echoes(`${tokenPrefix}${KEY}`))) {
      for (const as of ["json", "text"]) {
        const client = createClient({
          apiKey: KEY,
          resellerApiKey: RESELLER,
          baseUrl: server.url,
          headers: { "x-form": form, "x-as": as },
          logger: { warn: (l) => lines.push(l), debug: (l) => lines.push(l) },
          maxRetries: 1,
          retry: { initialDelayMs: 5 },
          rateLimit: false,
        });
        const failures = await Promise.all([
          paginate(client, "/cloud/v1/regions")
            .toArray()
            .catch((e) => e),
          paginate(client, "/cloud/reseller/v1/limits_request")
            .toArray()
            .catch((e) => e),
          waitForTask(client, "t", { pollIntervalMs: 5 }).catch((e) => e),
        ]);
        expect(failures.map((f) => f?.name)).toEqual([
          "AuthenticationError",
          "AuthenticationError",
          "TaskFailedError",
        ]);
        // Raw calls hand back the error body: it is redacted too.
        const raw = await client.GET("/cloud/v1/projects");
        expect(raw.response.status).toBe(500);
        said.push(...failures.map(everythingSaidAbout), inspect(raw.error, { depth: 10 }));
        redacted.push(
          JSON.stringify(failures[0].body),
          JSON.stringify(failures[2].task),
          // The answer's headers the error carries held the echo too.
          JSON.stringify(failures[0].headers["x-echo"]),
          JSON.stringify(failures[0].headers["www-authenticate"]),
        );
      }
    }
    expectNoKey([...said, ...lines].join("\n"), { "client key": KEY, "reseller key": RESELLER });
    // The echoes did arrive (the check above is not vacuous): each was replaced by the marker.
    expect(redacted.every((text) => text.includes("***"))).toBe(true);
    expect(server.requests.some((r) => r.headers.authorization === `${tokenPrefix}${RESELLER}`)).toBe(true);
    expect(lines.length).toBeGreaterThan(0);
  });

  it("is redacted from the debug lines, whatever form the URL holds it in", async () => {
    // The key where a URL can hold it, in each form a server might echo it in: a base URL's path
    // (a proxy's address, a mistake). Every request and answer line names that URL.
    const server = await startScriptedServer(offsetList(1));
    const lines: string[] = [];
    for (const [name, form] of Object.entries(echoes(`${tokenPrefix}${KEY}`))) {
      const client = createClient({
        apiKey: KEY,
        // As written: the URL parser escapes what a path cannot hold (the space of the header).
        baseUrl: `${server.url}/${form}`,
        headers: { "x-form": name },
        logger: { warn: (l) => lines.push(l), debug: (l) => lines.push(l) },
        logLevel: "debug",
        rateLimit: false,
      });
      await client.GET("/cloud/v1/regions");
    }
    expect(lines.filter((l) => l.startsWith("request GET")).length).toBe(Object.keys(echoes("")).length);
    expectNoKey(lines.join("\n"), { "client key": KEY });
    // The URLs did hold the key (the check above is not vacuous): it was replaced by the marker.
    expect(lines.filter((l) => !l.includes("***"))).toEqual([]);
  });
});
