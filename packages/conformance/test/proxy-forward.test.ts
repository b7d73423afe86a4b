// The proxy's forwarding stage, in-process (a stand-in for the upstream request): where a request
// goes and with which headers, a silent or absent upstream as the proxy's own 502, and the one case
// a request goes a second time.

import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { forward } from "../src/traffic/proxy/forward.js";
import { acceptedPassage, fakeRelay } from "./proxy-fakes.js";
import { tokenPrefix } from "./token-prefix.js";

const relays: ReturnType<typeof fakeRelay>[] = [];
afterEach(() => {
  for (const { relay } of relays.splice(0)) relay.agent.destroy();
});
const relayed = () => {
  const made = fakeRelay("https://api.example.test/cloud/");
  relays.push(made);
  return made;
};
const reset = () => Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("forward", { timeout: 30_000 }, () => {
  it("sends to the upstream under its base path, headers as written and grouped, Host the upstream's", () => {
    const { relay, sent } = relayed();
    const { passage } = acceptedPassage({
      method: "PATCH",
      url: "http://proxy.test/v1/regions?limit=2",
      rawHeaders: [
        "AUTHORIZATION",
        `${tokenPrefix}1$abc`,
        "x-trace",
        "a",
        "Host",
        "proxy.test",
        "X-Trace",
        "b",
      ],
    });
    const request = forward(passage, relay, () => {});
    expect(sent).toHaveLength(1);
    expect(passage.current).toBe(request);
    expect(sent[0]?.options).toMatchObject({
      protocol: "https:",
      hostname: "api.example.test",
      method: "PATCH",
      path: "/cloud/v1/regions?limit=2",
      agent: relay.agent,
      timeout: 120_000,
    });
    expect([...(sent[0]?.headers ?? [])]).toEqual([
      ["AUTHORIZATION", [`${tokenPrefix}1$abc`]],
      ["x-trace", ["a", "b"]],
      ["Host", "api.example.test"],
    ]);
  });

  it("hands the upstream's answer on", () => {
    const { relay, sent } = relayed();
    const answers: IncomingMessage[] = [];
    forward(acceptedPassage().passage, relay, (answer) => answers.push(answer));
    const answer = {} as IncomingMessage;
    sent[0]?.emit("response", answer);
    expect(answers).toEqual([answer]);
  });

  it("a silent upstream: the client gets the proxy's 502, the exchange ends without an answer", async () => {
    const { relay, sent, told } = relayed();
    const { passage, res, ended } = acceptedPassage();
    forward(passage, relay, () => {});
    sent[0]?.emit("timeout");
    expect(await ended).toEqual({
      status: null,
      statusText: "",
      rawHeaders: [],
      error: "the upstream was silent for 120 s",
    });
    expect(res.head).toEqual({
      status: 502,
      headers: { "content-type": "text/plain; charset=utf-8", "x-conformance-observe": "no-answer" },
    });
    expect(res.text).toBe(
      "conformance observe: no answer from the upstream https://api.example.test (the upstream was silent for 120 s)\n",
    );
    expect(told).toEqual([
      ["timeout", "the upstream was silent for 120 s: the client got the proxy's 502 (UPSTREAM_TIMEOUT_MS)"],
    ]);
  });

  it("a bodiless request on a kept-alive connection the upstream had closed goes again, once, on a fresh one", async () => {
    const { relay, sent } = relayed();
    const { passage, res, ended } = acceptedPassage();
    forward(passage, relay, () => {});
    Object.assign(sent[0] ?? {}, { reusedSocket: true });
    sent[0]?.destroy(reset());
    await new Promise((done) => sent[0]?.once("close", done));
    expect(sent).toHaveLength(2);
    expect(sent[1]?.options.agent).toBe(false);
    expect(sent[1]?.writableEnded).toBe(true);
    expect(passage.current).toBe(sent[1]);
    expect(res.headersSent).toBe(false);
    // The fresh one is not tried again: its failure is the client's to see.
    Object.assign(sent[1] ?? {}, { reusedSocket: true });
    sent[1]?.destroy(reset());
    await new Promise((done) => sent[1]?.once("close", done));
    expect(sent).toHaveLength(2);
    expect((await ended).error).toBe("socket hang up");
    expect(res.head?.status).toBe(502);
  });

  it("a request with a body is never sent twice", async () => {
    const { relay, sent } = relayed();
    const { passage, res, ended } = acceptedPassage({ method: "POST", rawHeaders: ["Content-Length", "2"] });
    forward(passage, relay, () => {});
    Object.assign(sent[0] ?? {}, { reusedSocket: true });
    sent[0]?.destroy(reset());
    expect((await ended).error).toBe("socket hang up");
    expect(sent).toHaveLength(1);
    expect(res.head?.status).toBe(502);
  });

  it("a failure after the upstream answered stops the body, and leaves the answer to go on", async () => {
    const { relay, sent } = relayed();
    const { passage, req, res, endings } = acceptedPassage({
      method: "POST",
      rawHeaders: ["Content-Length", "9"],
    });
    req.pipe(forward(passage, relay, () => {}));
    passage.responded = true;
    sent[0]?.destroy(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    await new Promise((done) => sent[0]?.once("close", done));
    await new Promise(setImmediate);
    expect(res.headersSent).toBe(false);
    expect(endings).toEqual([]);
    expect(req.readableFlowing).toBe(true); // resumed: the rest of the body is read and dropped
  });
});
