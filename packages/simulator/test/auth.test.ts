import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TOKENS, describeToken } from "../src/index.js";
import { createTestSimulator, type TestSimulator, tokenPrefix } from "./harness.js";
import { changedSpec, nodeAt } from "./spec-copy.js";

let t: TestSimulator;
beforeAll(async () => {
  t = await createTestSimulator();
});
afterAll(() => t.close());

describe("authentication (the token in the Authorization header, after the scheme's prefix)", () => {
  it("accepts the client token, which contains a $", async () => {
    expect(t.sim.apiKey).toContain("$");
    const me = await t.call("GET", "/iam/clients/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 300112, email: "ops@example.com", status: "active" });
  });

  it("treats the header name case-insensitively", async () => {
    const answer = await t.call("GET", "/iam/clients/me", {
      token: null,
      headers: { AUTHORIZATION: `${tokenPrefix}${t.sim.apiKey}` },
    });
    expect(answer.status).toBe(200);
  });

  it.each([
    ["missing", null, undefined],
    ["Bearer scheme", null, { Authorization: `Bearer ${DEFAULT_TOKENS.client}` }],
    ["the word only", null, { Authorization: tokenPrefix }],
    ["two spaces", null, { Authorization: `${tokenPrefix} ${DEFAULT_TOKENS.client}` }],
    ["no space", null, { Authorization: `${tokenPrefix.trim()}${DEFAULT_TOKENS.client}` }],
    ["unknown token", "300112$not-a-token", undefined],
    ["expired token", DEFAULT_TOKENS.expired, undefined],
  ] as const)("answers 401 for a %s", async (_, token, headers) => {
    const answer = await t.call("GET", "/cloud/v1/projects", {
      token,
      headers: headers ? { ...headers } : undefined,
    });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/Authorization|token/);
    expect(JSON.stringify(answer.body)).not.toContain(DEFAULT_TOKENS.client);
  });

  it("checks the token before the request: an unauthenticated bad request is 401, not 400", async () => {
    const answer = await t.call("GET", "/cloud/v1/regions", { token: null, query: { limit: 0 } });
    expect(answer.status).toBe(401);
  });

  it("lets a read-only token read and answers 403 to its writes", async () => {
    expect((await t.call("GET", "/cloud/v1/regions", { token: DEFAULT_TOKENS.readOnly })).status).toBe(200);
    const write = await t.call("POST", "/cloud/v1/volumes/1/76", {
      token: DEFAULT_TOKENS.readOnly,
      body: { name: "v", source: "new-volume", size: 1 },
    });
    expect(write.status).toBe(403);
    expect(write.body.message).toMatch(/read-only/);
    const put = await t.call("PUT", "/storage/notifications/v1/event", {
      token: DEFAULT_TOKENS.readOnly,
      body: { name: "reaching_used_space" },
    });
    expect(put.status).toBe(403);
  });

  it("answers 403 to a client token on the reseller API and 200 to the reseller token", async () => {
    const client = await t.call("GET", "/cloud/reseller/v1/limits_request");
    expect(client.status).toBe(403);
    expect(client.body.message).toMatch(/reseller/);
    const reseller = await t.call("GET", "/cloud/reseller/v1/limits_request", {
      token: t.sim.resellerApiKey,
    });
    expect(reseller.status).toBe(200);
  });

  it("answers 403 to the reseller token on a client operation", async () => {
    const answer = await t.call("GET", "/cloud/v1/projects", { token: t.sim.resellerApiKey });
    expect(answer.status).toBe(403);
  });
});

describe("the header as the served description's security schemes show it", () => {
  it("says what to send in the scheme's own words", async () => {
    const missing = await t.call("GET", "/cloud/v1/projects", { token: null });
    expect(missing.body.message).toBe(
      `The Authorization header is missing; send \`Authorization: ${tokenPrefix}<token>\`.`,
    );
    const noSpace = await t.call("GET", "/cloud/v1/projects", {
      token: null,
      headers: { Authorization: `${tokenPrefix.trim()}${DEFAULT_TOKENS.client}` },
    });
    expect(noSpace.body.message).toBe(
      `The Authorization header must be the word ${tokenPrefix.trim()}, one space, then the token.`,
    );
  });

  it("refuses to start when the two token schemes are sent differently", async () => {
    const spec = changedSpec((doc) => {
      const scheme = nodeAt(doc, "#/components/securitySchemes/ResellerAPIKey");
      scheme.description = String(scheme.description).replaceAll(
        `\`Authorization: ${tokenPrefix}<`,
        "`Authorization: Token <",
      );
    });
    await expect(createTestSimulator({ spec })).rejects.toThrow(
      `The simulator reads every token the one way: the spec sends APIKey as \`Authorization: ${tokenPrefix}<token>\` but ResellerAPIKey as \`Authorization: Token <token>\`.`,
    );
  });

  it("takes the prefix a changed description shows, and refuses the bundled one's", async () => {
    const shown = (prefix: string) => `\`Authorization: ${prefix}<`;
    const spec = changedSpec((doc) => {
      for (const name of ["APIKey", "ResellerAPIKey"]) {
        const scheme = nodeAt(doc, `#/components/securitySchemes/${name}`);
        scheme.description = String(scheme.description).replaceAll(shown(tokenPrefix), shown("Token "));
      }
    });
    const other = await createTestSimulator({ spec });
    try {
      const call = (value: string) =>
        other.call("GET", "/iam/clients/me", { token: null, headers: { Authorization: value } });
      expect((await call(`Token ${other.sim.apiKey}`)).status).toBe(200);
      const bundled = await call(`${tokenPrefix}${other.sim.apiKey}`);
      expect(bundled.status).toBe(401);
      expect(bundled.body.message).toContain("the word Token,");
    } finally {
      await other.close();
    }
  });
});

describe("tokens from flags and environment", () => {
  it("accepts the token given as an option instead of the default", async () => {
    const own = await createTestSimulator({ apiKey: "42$my-own-token", resellerApiKey: "7$my-reseller" });
    try {
      expect((await own.call("GET", "/iam/clients/me", { token: "42$my-own-token" })).status).toBe(200);
      expect((await own.call("GET", "/iam/clients/me", { token: DEFAULT_TOKENS.client })).status).toBe(401);
      expect(
        (await own.call("GET", "/cloud/reseller/v1/limits_request", { token: "7$my-reseller" })).status,
      ).toBe(200);
    } finally {
      await own.close();
    }
  });

  it("takes GCORE_API_KEY when no option is given, and never reports its value", async () => {
    const own = await createTestSimulator({ env: { GCORE_API_KEY: "9$from-the-environment" } });
    try {
      expect((await own.call("GET", "/iam/clients/me", { token: "9$from-the-environment" })).status).toBe(
        200,
      );
      const info = own.sim.tokens.find((x) => x.label === "client");
      expect(info).toMatchObject({ source: "environment", variable: "GCORE_API_KEY" });
      const printed = own.sim.tokens.map(describeToken).join("; ");
      expect(printed).toContain("from $GCORE_API_KEY");
      expect(printed).not.toContain("from-the-environment");
    } finally {
      await own.close();
    }
  });
});
