// The proxy's first stage, in-process: what is noted of a request as it comes, the exchange counted
// in flight until it is recorded, and a client that gives up ending the exchange.

import { describe, expect, it } from "vitest";
import { MAX_JUDGED_BODY_BYTES } from "../src/shared/exchange.js";
import { acceptedPassage, UpstreamRequest } from "./proxy-fakes.js";
import { tokenPrefix } from "./token-prefix.js";

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("accept", { timeout: 30_000 }, () => {
  it("notes the path of an absolute-form target and only the end-to-end headers, as written", () => {
    const { passage } = acceptedPassage({
      url: "http://elsewhere.test/v1/regions?limit=2",
      rawHeaders: [
        "AUTHORIZATION",
        `${tokenPrefix}1$abc`,
        "Connection",
        "keep-alive, X-Hop",
        "X-Hop",
        "mine",
        "Keep-Alive",
        "timeout=5",
        "Host",
        "elsewhere.test",
        "x-trace",
        "a",
        "X-Trace",
        "b",
      ],
    });
    expect(passage.url).toBe("/v1/regions?limit=2");
    expect(passage.requestRawHeaders).toEqual([
      "AUTHORIZATION",
      `${tokenPrefix}1$abc`,
      "x-trace",
      "a",
      "X-Trace",
      "b",
    ]);
    expect(passage.bodiless).toBe(true);
    expect(acceptedPassage({ url: "regions" }).passage.url).toBe("/regions");
  });

  it("a request with a body is not bodiless, and its copy stops at the judge's bound", () => {
    const small = acceptedPassage({ method: "POST", rawHeaders: ["Content-Length", "2"] });
    expect(small.passage.bodiless).toBe(false);
    small.req.emit("data", Buffer.from("{}"));
    expect(small.passage.requestCopy.bytes()?.toString()).toBe("{}");

    const large = acceptedPassage({ method: "POST", rawHeaders: ["Transfer-Encoding", "chunked"] });
    expect(large.passage.bodiless).toBe(false);
    large.req.emit("data", Buffer.alloc(MAX_JUDGED_BODY_BYTES));
    expect(large.passage.requestCopy.bytes()?.length).toBe(MAX_JUDGED_BODY_BYTES);
    large.req.emit("data", Buffer.alloc(1));
    expect(large.passage.requestCopy.bytes()).toBeUndefined();
    expect(large.passage.requestCopy.seen).toBe(true);
  });

  it("records the first ending only, after the answer is on its way, and counts the exchange in flight until then", async () => {
    const { passage, inFlight, endings, ended } = acceptedPassage();
    expect(inFlight.size).toBe(1);
    passage.end({ status: 200, statusText: "OK", rawHeaders: [] });
    passage.end({ status: null, statusText: "", rawHeaders: [], error: "later" });
    expect(endings).toEqual([]); // not in the same turn: the client never waits for the judge
    expect(await ended).toEqual({ status: 200, statusText: "OK", rawHeaders: [] });
    await new Promise(setImmediate);
    expect(endings).toHaveLength(1);
    expect(endings[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(inFlight.size).toBe(0);
  });

  it("a client that closes before the answer is whole drops the upstream request and ends the exchange", async () => {
    const { passage, res, ended } = acceptedPassage();
    const upstream = new UpstreamRequest({});
    passage.current = upstream as never;
    res.destroy();
    expect(await ended).toEqual({
      status: null,
      statusText: "",
      rawHeaders: [],
      error: "the client closed the connection before the answer was whole",
    });
    expect(upstream.destroyed).toBe(true);
  });

  it("a client's answer written whole ends nothing on close", async () => {
    const { passage, res, endings } = acceptedPassage();
    const closed = new Promise((done) => res.once("close", done));
    res.end();
    await closed;
    await new Promise(setImmediate);
    expect(endings).toEqual([]);
    passage.end({ status: 204, statusText: "No Content", rawHeaders: [] });
    await new Promise(setImmediate);
    expect(endings).toHaveLength(1);
  });
});
