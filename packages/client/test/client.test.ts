import { MODEL } from "@platform-api/spec/generated/model";
import { tokenScheme } from "@platform-api/spec/model";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient as createCloudClient } from "../src/generated/products/cloud.js";
import { ClientConfigError, ConnectionError, createClient, DEFAULT_BASE_URL } from "../src/index.js";
import { scriptedServerForSuite } from "./scripted-server.js";

const KEY = "2971$e0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7c8d9";
const RESELLER_KEY = "8812$reseller0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5";
// Both tokens are sent the same way; the prefix is the spec's, so a client that typed another fails.
const { tokenPrefix } = tokenScheme(MODEL, "APIKey");

const server = scriptedServerForSuite(() => ({ body: { count: 0, results: [] } }));
afterEach(() => {
  server.requests.length = 0;
  vi.unstubAllEnvs();
});

describe("createClient", () => {
  it("sends the token in the Authorization header, after its prefix, to the base URL, with the $ of the token intact", async () => {
    const client = createClient({ apiKey: KEY, baseUrl: server.url });
    const { data, response } = await client.GET("/cloud/v1/regions", {
      params: { query: { limit: 10, offset: 20 } },
    });
    expect(response.status).toBe(200);
    expect(data).toEqual({ count: 0, results: [] });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: "GET",
      url: "/cloud/v1/regions?limit=10&offset=20",
      headers: { authorization: `${tokenPrefix}${KEY}` },
    });
  });

  it("sends a JSON body with its content type on writes", async () => {
    const client = createCloudClient({ apiKey: KEY, baseUrl: server.url });
    await client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
      params: { path: { project_id: 1, region_id: 76 } },
      body: { name: "data", size: 10, type_name: "standard", source: "new-volume" },
    });
    expect(server.requests[0]?.url).toBe("/cloud/v1/volumes/1/76");
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({
      name: "data",
      size: 10,
      type_name: "standard",
      source: "new-volume",
    });
  });

  it("serialises the repeated status parameter of quota limit requests", async () => {
    const client = createClient({ apiKey: KEY, baseUrl: server.url });
    await client.GET("/cloud/reseller/v1/limits_request", {
      params: { query: { status: ["done", "in progress"], client_id: 7 } },
    });
    const url = new URL(server.requests[0]?.url ?? "", server.url);
    expect(url.searchParams.getAll("status")).toEqual(["done", "in progress"]);
    expect(url.searchParams.get("client_id")).toBe("7");
  });

  it("uses the reseller token for /cloud/reseller operations and the client token elsewhere", async () => {
    const client = createClient({ apiKey: KEY, resellerApiKey: RESELLER_KEY, baseUrl: server.url });
    await client.GET("/cloud/reseller/v1/limits_request");
    await client.GET("/iam/clients/me");
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      `${tokenPrefix}${RESELLER_KEY}`,
      `${tokenPrefix}${KEY}`,
    ]);
  });

  it("uses the reseller token exactly for the operations whose security is ResellerAPIKey", async () => {
    const client = createClient({
      apiKey: KEY,
      resellerApiKey: RESELLER_KEY,
      baseUrl: server.url,
      validateParams: false,
    });
    const expected: string[] = [];
    for (const operation of MODEL.operations) {
      const method = operation.method.toUpperCase() as "GET";
      const path = Object.fromEntries(
        operation.parameters.filter((p) => p.in === "path").map((p) => [p.name, 1]),
      );
      await (client[method] as (path: string, init: object) => Promise<unknown>)(operation.path, {
        params: { path },
      });
      const security: readonly string[] = operation.security;
      expected.push(`${tokenPrefix}${security.includes("ResellerAPIKey") ? RESELLER_KEY : KEY}`);
    }
    expect(expected).toContain(`${tokenPrefix}${RESELLER_KEY}`);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual(expected);
  });

  it("chooses the token by the operation also for openapi-fetch's request() and a concrete path", async () => {
    const client = createClient({ apiKey: KEY, resellerApiKey: RESELLER_KEY, baseUrl: server.url });
    await client.request("get", "/cloud/reseller/v1/limits_request");
    await client.request("get", "/cloud/v1/regions");
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      `${tokenPrefix}${RESELLER_KEY}`,
      `${tokenPrefix}${KEY}`,
    ]);
  });

  it("redacts the key from what openapi-fetch's request() throws or hands back, as from the methods", async () => {
    const secret = KEY.slice(KEY.indexOf("$") + 1);
    const client = createClient({
      apiKey: KEY,
      baseUrl: server.url,
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError(`connection refused for ${KEY}`);
      },
    });
    const error = (await client.request("get", "/cloud/v1/regions").catch((e) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(`${error.message} ${(error.cause as Error).message}`).not.toContain(secret);
    const echoing = createClient({
      apiKey: KEY,
      baseUrl: server.url,
      fetch: async () => Response.json({ detail: `bad token ${KEY}` }, { status: 400 }),
    });
    const { error: body, response } = await echoing.request("get", "/cloud/v1/regions");
    expect(response.status).toBe(400);
    expect(JSON.stringify(body)).toContain("bad token");
    expect(JSON.stringify(body)).not.toContain(secret);
  });

  it("keeps a path prefix of the base URL when choosing the token", async () => {
    const client = createClient({
      apiKey: KEY,
      resellerApiKey: RESELLER_KEY,
      baseUrl: `${server.url}/proxy/`,
    });
    await client.GET("/cloud/reseller/v1/limits_request");
    expect(server.requests[0]).toMatchObject({
      url: "/proxy/cloud/reseller/v1/limits_request",
      headers: { authorization: `${tokenPrefix}${RESELLER_KEY}` },
    });
  });

  it("reads GCORE_API_KEY, GCORE_RESELLER_API_KEY and GCORE_BASE_URL when the options are absent", async () => {
    vi.stubEnv("GCORE_API_KEY", KEY);
    vi.stubEnv("GCORE_RESELLER_API_KEY", RESELLER_KEY);
    vi.stubEnv("GCORE_BASE_URL", server.url);
    const client = createClient();
    await client.GET("/iam/clients/me");
    await client.GET("/cloud/reseller/v1/limits_request");
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      `${tokenPrefix}${KEY}`,
      `${tokenPrefix}${RESELLER_KEY}`,
    ]);
  });

  it("defaults the base URL to the description's server", () => {
    expect(DEFAULT_BASE_URL).toBe(MODEL.conventions.defaultBaseUrl);
    const seen: string[] = [];
    const client = createClient({
      apiKey: KEY,
      fetch: async (input) => {
        seen.push(input instanceof Request ? input.url : String(input));
        return new Response("{}", { headers: { "content-type": "application/json" } });
      },
    });
    return client
      .GET("/iam/clients/me")
      .then(() => expect(seen).toEqual([`${MODEL.conventions.defaultBaseUrl}/iam/clients/me`]));
  });
});

describe("createClient refuses unusable options before any request", () => {
  const cases: [string, Parameters<typeof createClient>[0], RegExp][] = [
    ["an empty key", { apiKey: "" }, /apiKey: the token \(the apiKey option\) is empty/],
    ["a blank key", { apiKey: "   " }, /is empty/],
    ["a key already prefixed", { apiKey: `${tokenPrefix}${KEY}` }, /pass the bare token/],
    ["a key prefixed in lower case", { apiKey: `${tokenPrefix.toLowerCase()}${KEY}` }, /pass the bare token/],
    ["a key with a line break", { apiKey: `${KEY}\n` }, /contains white space/],
    [
      "a reseller key already prefixed",
      { apiKey: KEY, resellerApiKey: `${tokenPrefix}${RESELLER_KEY}` },
      /^resellerApiKey: pass the bare token/,
    ],
    [
      "a relative base URL",
      { apiKey: KEY, baseUrl: "api.gcore.com" },
      /baseUrl: "api.gcore.com" \(the baseUrl option\) is not an absolute URL/,
    ],
    [
      "a base URL of another scheme",
      { apiKey: KEY, baseUrl: "ftp://api.gcore.com" },
      /must use http or https/,
    ],
  ];
  it.each(cases)("refuses %s with a message that says what is allowed", (_name, options, message) => {
    expect(() => createClient(options)).toThrow(ClientConfigError);
    expect(() => createClient(options)).toThrow(message);
  });

  it("refuses to start without any key, naming both ways to give one", () => {
    vi.stubEnv("GCORE_API_KEY", undefined);
    expect(() => createClient({ baseUrl: server.url })).toThrow(
      "apiKey: no API token: pass { apiKey } or set the GCORE_API_KEY environment variable.",
    );
  });

  it("names the environment variable when the bad key came from it", () => {
    vi.stubEnv("GCORE_API_KEY", `${tokenPrefix}${KEY}`);
    expect(() => createClient()).toThrow(/\(the GCORE_API_KEY environment variable\)/);
  });

  it("never puts the key into the error, its message or its serialisation", () => {
    for (const apiKey of [`${tokenPrefix}${KEY}`, `${KEY} trailing`]) {
      try {
        createClient({ apiKey });
        expect.unreachable("createClient should have thrown");
      } catch (error) {
        const e = error as ClientConfigError;
        const text = [e.message, String(e), e.stack ?? "", JSON.stringify(e), JSON.stringify({ ...e })].join(
          "\n",
        );
        expect(text).not.toContain(KEY);
        expect(text).not.toContain("e0c1c4b7");
      }
    }
  });
});
