// The redactor and where the HTTP layer applies it: every form of a key, and before the excerpt cut.

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRedactor as createClientRedactor } from "@platform-api/client/redact";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { echoes, leaks } from "../../client/test/key-forms.js";
import { createHttp } from "../src/http/http.js";
import type { Evidence } from "../src/shared/context.js";
import { fieldOf } from "../src/shared/json.js";
import { createRedactor, createUsageRedactor, REDACTED } from "../src/shared/redact.js";
import { tokenPrefix } from "./token-prefix.js";

const KEY = "2971$e0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7c8d9";
const RESELLER = "8812$9f3b27ac51d04e6b8a7c2e1f0d9c8b7a6f5e4d3c";
const KEYS = { "client key": KEY, "reseller key": RESELLER };

describe("createRedactor", () => {
  const redact = createRedactor([KEY, undefined, RESELLER]);

  for (const key of [KEY, RESELLER])
    for (const [name, form] of Object.entries(echoes(`${tokenPrefix}${key}`)))
      it(`redacts ${name} (${key === KEY ? "client" : "reseller"} key), alone and inside text`, () => {
        for (const text of [form, `{"detail":"bad ${form}!"}`, `a${form}z`, form.toUpperCase()]) {
          const out = redact(text);
          // An upper-cased base64 value is another value: nothing to find in it.
          if (text === form.toUpperCase() && name.includes("base64")) continue;
          expect(leaks(out, KEYS)).toEqual([]);
          expect(out).toContain(REDACTED);
        }
      });

  it("leaves text without a key as it is", () => {
    const text =
      'GET /cloud/v1/regions?limit=1000&offset=0 -> 200 {"id":"5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11","name":"Luxembourg","b":"eyJhIjoxfQ=="} $ 2971 e0c1';
    expect(redact(text)).toBe(text);
  });

  // Text that holds no escaped character and no plain form of a key skips the patterns
  // (src/shared/redact.ts): that shortcut must never change what the patterns would give.
  it("gives what the client's patterns give, on any mix of key forms, escapes and other text", () => {
    const patterns = createClientRedactor([KEY, RESELLER]).text;
    // The echoes, and the keys as hex (a form the client's patterns find, no echo shows).
    const forms = [KEY, RESELLER].flatMap((key) => [
      ...Object.values(echoes(`${tokenPrefix}${key}`)),
      Buffer.from(key).toString("hex"),
    ]);
    const piece = fc.oneof(
      fc.constantFrom(...forms),
      fc.constantFrom(...forms).map((form) => form.toUpperCase()),
      fc.constantFrom(...forms).map((form) => form.slice(0, Math.max(4, form.length >> 1))),
      fc.constantFrom("%2F", "%24", "\\u0024", "\\x41", "&#36;", "&#x24;", "&amp;", "?a=1&b=2", "$", " "),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const text = pieces.join("");
        expect(redact(text)).toBe(patterns(text));
      }),
      { numRuns: 400 },
    );
  });

  it("ignores keys shorter than 4 characters and missing ones", () => {
    expect(createRedactor(["abc", undefined, ""])("abc abc")).toBe("abc abc");
  });
});

describe("createUsageRedactor", () => {
  it("redacts the keys of the named variables, of any shape, and anything shaped like a token", () => {
    const redact = createUsageRedactor({ MY_KEY: "plainTokenWithoutDollar0c1c", OTHER: "not-a-key-var" }, [
      "MY_KEY",
      undefined,
    ]);
    expect(redact(`--target "plainTokenWithoutDollar0c1c" is not allowed`)).toBe(
      `--target "***" is not allowed`,
    );
    expect(redact(`unknown option '--api-key=${KEY}'`)).toBe("unknown option '--api-key=***'");
    expect(redact(`--target ${encodeURIComponent(KEY)}: no`)).toBe("--target ***: no");
    expect(redact("not-a-key-var and $HOME and 100 $")).toBe("not-a-key-var and $HOME and 100 $");
  });

  it("redacts the password of a URL in any text, and in every form when the URL was given to it", () => {
    const password = "s3cret-pw!Zq81";
    const url = `http://user:${encodeURIComponent(password)}@127.0.0.1:4601`;
    const anyUrl = createUsageRedactor({}, []);
    expect(anyUrl(`--target "${url}/x" is not allowed`)).toBe(
      '--target "http://user:***@127.0.0.1:4601/x" is not allowed',
    );
    expect(anyUrl("ftp://a@b:p@ss@host/ and https://host/a:b@c")).toBe(
      "ftp://a@b:***@host/ and https://host/a:b@c",
    );
    const given = createUsageRedactor({}, [], [url, undefined, "simulator"]);
    const secrets = { password };
    for (const form of Object.values(echoes(password)))
      expect(leaks(given(`echo: ${form} .`), secrets), form).toEqual([]);
    expect(given(`the password ${password} alone`)).toBe("the password *** alone");
  });
});

describe("the HTTP layer", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("cuts the excerpt from text it has redacted already: a key straddling character 300 leaves nothing", async () => {
    // The token starts 20 characters before the cut at 300.
    const server = createServer((req, res) => {
      const header = String(req.headers.authorization);
      const body = JSON.stringify({
        detail: `${"x".repeat(300 - 20 - tokenPrefix.length - 11)}${header} is not a token`,
      });
      res.writeHead(401, { "content-type": "application/json" }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    const evidence: Evidence[] = [];
    const http = createHttp({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: KEY,
      pacer: { wait: async () => {} },
      record: (e) => evidence.push(e),
    });
    const answer = await http.call({ method: "GET", path: "/iam/clients/me" });
    expect(answer.status).toBe(401);
    // The body the scenarios judge is the server's; the text they quote is redacted.
    expect(fieldOf(answer.body, "detail")).toContain(KEY);
    expect(leaks(answer.text, KEYS)).toEqual([]);
    expect(answer.text).toContain(
      `"detail":"${"x".repeat(300 - 20 - tokenPrefix.length - 11)}${tokenPrefix}*** is not a token"`,
    );
    expect(evidence).toHaveLength(1);
    expect(leaks(evidence[0]?.excerpt ?? "", KEYS)).toEqual([]);
    expect(evidence[0]?.excerpt?.endsWith(`${tokenPrefix}*** is not a token"}`)).toBe(true);
  });
});
