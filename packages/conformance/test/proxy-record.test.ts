// The proxy's recording stage, in-process: what the judge is handed of an exchange, the body
// decoded and bounded, and a judge that throws costing nothing but a line.

import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAX_JUDGED_BODY_BYTES } from "../src/shared/exchange.js";
import { type PassedExchange, record } from "../src/traffic/proxy/record.js";
import { acceptedPassage } from "./proxy-fakes.js";
import { tokenPrefix } from "./token-prefix.js";

function recorded(
  passage: ReturnType<typeof acceptedPassage>["passage"],
  ending: Parameters<typeof record>[1],
): { passed: PassedExchange[]; told: [string, string][] } {
  const passed: PassedExchange[] = [];
  const told: [string, string][] = [];
  record(
    passage,
    ending,
    12.5,
    (p) => passed.push(p),
    (kind, message) => told.push([kind, message]),
  );
  return { passed, told };
}

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("record", { timeout: 30_000 }, () => {
  it("hands on both sides as the judge reads them: the body decoded, headers joined, raw lists kept", () => {
    const { passage, req } = acceptedPassage({
      method: "POST",
      url: "/v1/things?x=1",
      rawHeaders: ["Content-Length", "2", "Authorization", `${tokenPrefix}1$abc`],
    });
    req.emit("data", Buffer.from("{}"));
    passage.responseCopy.add(gzipSync('{"ok":true}'));
    const raw = ["Content-Encoding", "gzip", "Set-Thing", "a", "set-thing", "b"];
    const { passed, told } = recorded(passage, { status: 200, statusText: "OK", rawHeaders: raw });
    expect(told).toEqual([]);
    expect(passed).toEqual([
      {
        exchange: {
          method: "POST",
          url: "/v1/things?x=1",
          requestHeaders: { "content-length": "2", authorization: `${tokenPrefix}1$abc` },
          requestBody: "{}",
          status: 200,
          responseHeaders: { "content-encoding": "gzip", "set-thing": "a, b" },
          body: '{"ok":true}',
          at: passage.at,
          durationMs: 12.5,
        },
        httpVersion: "HTTP/1.1",
        requestRawHeaders: ["Content-Length", "2", "Authorization", `${tokenPrefix}1$abc`],
        requestBody: "{}",
        statusText: "OK",
        responseRawHeaders: raw,
      },
    ]);
  });

  it("no answer: no body, the reason kept, the findings so far", () => {
    const { passage } = acceptedPassage();
    passage.invalid.push("the upstream answered status 000, which is no HTTP status code");
    const { passed } = recorded(passage, { status: null, statusText: "", rawHeaders: [], error: "gone" });
    expect(passed[0]?.exchange).toMatchObject({
      status: null,
      body: "",
      error: "gone",
      invalid: ["the upstream answered status 000, which is no HTTP status code"],
    });
    expect(passed[0]?.requestBody).toBeUndefined();
    expect("requestBody" in (passed[0]?.exchange ?? {})).toBe(false);
  });

  it("a body its Content-Encoding cannot decode is a finding, its bytes the evidence", () => {
    const { passage } = acceptedPassage();
    passage.responseCopy.add(Buffer.from("plain"));
    const { passed, told } = recorded(passage, {
      status: 200,
      statusText: "OK",
      rawHeaders: ["Content-Encoding", "gzip"],
    });
    expect(passed[0]?.exchange.body).toBe("plain");
    expect(passed[0]?.exchange.invalid).toEqual([
      expect.stringMatching(/^the body cannot be decoded as its Content-Encoding gzip says \(/),
    ]);
    expect(told[0]?.[0]).toBe("content-encoding");
  });

  it("a body larger than the judge reads, as it came or decoded, is passed unjudged (no body)", () => {
    const over = acceptedPassage().passage;
    over.responseCopy.add(Buffer.alloc(MAX_JUDGED_BODY_BYTES + 1));
    expect(recorded(over, { status: 200, statusText: "OK", rawHeaders: [] }).passed[0]?.exchange.body).toBe(
      undefined,
    );
    const bomb = acceptedPassage().passage;
    bomb.responseCopy.add(gzipSync(Buffer.alloc(MAX_JUDGED_BODY_BYTES + 1)));
    const { passed, told } = recorded(bomb, {
      status: 200,
      statusText: "OK",
      rawHeaders: ["content-encoding", "gzip"],
    });
    expect(passed[0]?.exchange.body).toBeUndefined();
    expect(passed[0]?.exchange.invalid).toBeUndefined();
    expect(told).toEqual([]);
  });

  it("a judge that throws is told of, never thrown past the proxy", () => {
    const { passage } = acceptedPassage();
    const told: [string, string][] = [];
    record(
      passage,
      { status: 204, statusText: "No Content", rawHeaders: [] },
      1,
      () => {
        throw new Error("disk full");
      },
      (kind, message) => told.push([kind, message]),
    );
    expect(told).toEqual([["internal", "judging or recording an exchange failed: disk full"]]);
  });
});
