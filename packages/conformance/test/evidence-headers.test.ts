// What an exchange's evidence keeps of the request and the answer beyond the answer's excerpt: the
// request body and both sides' headers, as report.json holds them. Each redacted of the run's keys
// in every form, a credential header (Authorization, cookies, key headers) never shown in any
// form, and all of it bounded however large or many the server's headers are.

import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { loadModel } from "@platform-api/spec";
import { afterEach, describe, expect, it } from "vitest";
import { echoes, leaks } from "../../client/test/key-forms.js";
import { createHttp } from "../src/http/http.js";
import { HEADERS, MORE, shownHeaders, VALUE } from "../src/http/shown-headers.js";
import type { Evidence } from "../src/shared/context.js";
import { REDACTED } from "../src/shared/redact.js";
import { tokenPrefix } from "./token-prefix.js";

const KEY = "2971$e0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7c8d9";
const KEYS = { "client key": KEY };
const model = loadModel();
/** A POST of the spec with a JSON body, and the status the spec gives a request over the rate. */
const withBody = model.operations.find((o) => o.method === "post" && o.requestBody);
const limited = model.conventions.requestRate.exceededStatus;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(
  answer: (req: IncomingMessage, body: string) => [number, Record<string, string>, string],
) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const [status, headers, body] = answer(req, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("an exchange's evidence", () => {
  it("keeps the request body and both sides' headers, the key redacted and Authorization never shown", async () => {
    if (!withBody) throw new Error("the spec has no operation with a request body");
    const params = Object.fromEntries(
      withBody.parameters.filter((p) => p.in === "path").map((p) => [p.name, 1] as const),
    );
    const baseUrl = await serve((req, body) => [
      limited,
      {
        "content-type": "application/json",
        "retry-after": "1",
        "x-echo": `you sent ${String(req.headers.authorization)}`,
        "set-cookie": "session=abc123",
      },
      body,
    ]);
    const evidence: Evidence[] = [];
    const http = createHttp({
      baseUrl,
      apiKey: KEY,
      pacer: { wait: async () => {} },
      record: (e) => evidence.push(e),
    });
    const sent = { name: `volume ${KEY}`, size: 1 };
    await http.send({
      method: withBody.method.toUpperCase() as "POST",
      path: withBody.path,
      params,
      body: sent,
      retry: false,
    });
    const [e] = evidence;
    expect(e?.requestBody).toBe(JSON.stringify({ ...sent, name: `volume ${REDACTED}` }));
    expect(e?.requestHeaders?.authorization).toBe(REDACTED);
    expect(e?.requestHeaders?.["content-type"]).toBe("application/json");
    expect(e?.responseHeaders?.["retry-after"]).toBe("1");
    expect(e?.responseHeaders?.["x-echo"]).toBe(`you sent ${tokenPrefix}${REDACTED}`);
    expect(e?.responseHeaders?.["set-cookie"]).toBe(REDACTED);
    expect(leaks(JSON.stringify(evidence), KEYS)).toEqual([]);
  });

  it("records the request of an exchange that got no answer", async () => {
    if (!withBody) throw new Error("the spec has no operation with a request body");
    const evidence: Evidence[] = [];
    const http = createHttp({
      baseUrl: "http://127.0.0.1:9",
      apiKey: KEY,
      pacer: { wait: async () => {} },
      record: (e) => evidence.push(e),
      timeoutMs: 60_000,
    });
    const params = Object.fromEntries(
      withBody.parameters.filter((p) => p.in === "path").map((p) => [p.name, 1] as const),
    );
    await expect(
      http.send({ method: "POST", path: withBody.path, params, body: { size: 1 }, retry: false }),
    ).rejects.toThrow(/no answer/);
    expect(evidence[0]?.status).toBeNull();
    expect(evidence[0]?.requestBody).toBe('{"size":1}');
    expect(evidence[0]?.requestHeaders?.authorization).toBe(REDACTED);
  }, 60_000);
});

describe("shownHeaders", () => {
  const redact = (text: string) => text.split(KEY).join(REDACTED);

  it("hides every credential header's value whole, whatever its case or scheme", () => {
    for (const [name, form] of Object.entries(echoes(`${tokenPrefix}${KEY}`))) {
      const shown = shownHeaders(
        { AUTHORIZATION: form, "Proxy-Authorization": form, "x-api-key": form, cookie: form },
        redact,
      );
      expect(Object.values(shown), name).toEqual([REDACTED, REDACTED, REDACTED, REDACTED]);
    }
    expect(shownHeaders({ authorization: "Bearer someone-elses-token" }, redact)).toEqual({
      authorization: REDACTED,
    });
  });

  it("keeps at most HEADERS headers of VALUE characters, and says what it cut", () => {
    const many = Object.fromEntries(
      Array.from({ length: HEADERS + 5 }, (_, i) => [`x-h${i}`, "v".repeat(1_000_000)]),
    );
    const shown = shownHeaders(many, redact);
    expect(Object.keys(shown)).toHaveLength(HEADERS + 1);
    expect(shown[MORE]).toBe("5 more headers not kept");
    expect(shown["x-h0"]).toBe(`${"v".repeat(VALUE)}… (cut: 1000000 characters in all)`);
    // A name that would set an object's prototype stays a header.
    const proto = shownHeaders(JSON.parse('{"__proto__":"x"}'), redact);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.hasOwn(proto, "__proto__")).toBe(true);
  });
});
