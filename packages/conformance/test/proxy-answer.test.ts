// The proxy's answering stage, in-process (stand-ins for the upstream's answer and the client's
// response): an answer passes as it came, and one that cannot pass is the proxy's 502, judged as it
// came.

import { describe, expect, it } from "vitest";
import { passAnswer } from "../src/traffic/proxy/answer.js";
import { acceptedPassage, fakeRelay, upstreamAnswer } from "./proxy-fakes.js";

const relay = () => {
  const { relay, told } = fakeRelay("http://127.0.0.1:9/base");
  relay.agent.destroy();
  return { relay, told };
};

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("passAnswer", { timeout: 30_000 }, () => {
  it("passes status, reason phrase, end-to-end headers as written and the body; the judge gets a copy", async () => {
    const { relay: r, told } = relay();
    const { passage, res, ended } = acceptedPassage();
    const answer = upstreamAnswer(201, "Made", ["X-Id", "7", "Connection", "close", "x-id", "8"]);
    passAnswer(passage, answer, r);
    expect(passage.responded).toBe(true);
    expect(res.sendDate).toBe(false);
    expect(res.head).toEqual({ status: 201, reason: "Made", headers: ["X-Id", "7", "x-id", "8"] });
    const finished = new Promise((done) => res.once("finish", done));
    answer.end(Buffer.from('{"id":7}'));
    expect(await ended).toEqual({ status: 201, statusText: "Made", rawHeaders: ["X-Id", "7", "x-id", "8"] });
    await finished;
    expect(res.text).toBe('{"id":7}');
    expect(passage.responseCopy.bytes()?.toString()).toBe('{"id":7}');
    expect(passage.invalid).toEqual([]);
    expect(told).toEqual([]);
  });

  it("a status that is none (000): the proxy's 502, the answer read and judged as it came", async () => {
    const { relay: r, told } = relay();
    const { passage, res, ended } = acceptedPassage();
    const answer = upstreamAnswer(0, "Nothing", []);
    passAnswer(passage, answer, r);
    expect(res.head).toEqual({
      status: 502,
      headers: { "content-type": "text/plain; charset=utf-8", "x-conformance-observe": "invalid-answer" },
    });
    expect(res.text).toBe(
      "conformance observe: the upstream http://127.0.0.1:9 answered status 000, which is no HTTP status code\n",
    );
    expect(passage.invalid).toEqual(["the upstream answered status 000, which is no HTTP status code"]);
    expect(told).toEqual([
      [
        "status",
        "the upstream http://127.0.0.1:9 answered status 000, which is no HTTP status code; the client got the proxy's 502",
      ],
    ]);
    answer.end("body");
    expect(await ended).toEqual({ status: 0, statusText: "Nothing", rawHeaders: [] });
    expect(upstreamAnswer(undefined, "", []).statusCode).toBeUndefined();
  });

  it("no status at all is said as (none)", () => {
    const { relay: r } = relay();
    const { passage } = acceptedPassage();
    passAnswer(passage, upstreamAnswer(undefined, "", []), r);
    expect(passage.invalid).toEqual(["the upstream answered status (none), which is no HTTP status code"]);
  });

  it("a reason phrase with a control character passes without it, and is a finding", () => {
    const { relay: r, told } = relay();
    const { passage, res } = acceptedPassage();
    passAnswer(passage, upstreamAnswer(200, "O\x7fK\x00", []), r);
    expect(res.head).toMatchObject({ status: 200, reason: "OK" });
    expect(passage.invalid).toEqual(["the reason phrase of the status line holds a control character"]);
    expect(told.map(([kind]) => kind)).toEqual(["reason-phrase"]);
  });

  it("headers Node cannot write: the proxy's 502", () => {
    const { relay: r, told } = relay();
    const { passage, res } = acceptedPassage();
    const writeHead = res.writeHead.bind(res);
    // Node refuses the upstream's headers; the proxy's own 502 it writes.
    res.writeHead = ((status: number, ...rest: never[]) => {
      if (status !== 502) throw new Error("Invalid character in header content");
      return writeHead(status, ...rest);
    }) as never;
    passAnswer(passage, upstreamAnswer(200, "OK", ["X-Bad", "a\u0001b"]), r);
    const message = "the upstream's answer cannot be passed on (Invalid character in header content)";
    expect(passage.invalid).toEqual([message]);
    expect(told).toEqual([["unpassable", `${message}; the client got the proxy's 502`]]);
    expect(res.text).toBe(`conformance observe: ${message}\n`);
  });

  it("an answer that breaks off cuts the client's and ends the exchange without one", async () => {
    const { relay: r } = relay();
    const { passage, res, ended } = acceptedPassage();
    const answer = upstreamAnswer(200, "OK", []);
    passAnswer(passage, answer, r);
    answer.destroy(new Error("aborted"));
    expect(await ended).toEqual({
      status: null,
      statusText: "",
      rawHeaders: [],
      error: "the answer broke off: aborted",
    });
    expect(res.destroyed).toBe(true);
  });
});
