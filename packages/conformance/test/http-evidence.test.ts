// What each try of a call leaves behind, in-process: the exchange the judge reads and the evidence
// a report shows, keys hidden, for an answer cut at its bound, no answer, and an answer.

import { operationById } from "@platform-api/spec";
import { afterEach, describe, expect, it } from "vitest";
import type { Request } from "../src/facts/api.js";
import { specModel } from "../src/facts/spec.js";
import { CutAnswerError, cutMessage, NoAnswerError } from "../src/http/errors.js";
import { answered, cutAnswer, evidenceOf, handOut, noAnswer, noAnswerError } from "../src/http/evidence.js";
import { type Layer, layerOf } from "../src/http/layer.js";
import { TooLarge } from "../src/http/read-answer.js";
import type { Evidence } from "../src/shared/context.js";
import type { ObservedExchange } from "../src/shared/exchange.js";
import { tokenPrefix } from "./token-prefix.js";

const KEY = "2971$e0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7c8d9";
const regions = operationById(specModel(), "listRegions");
const layers: Layer[] = [];
afterEach(() => {
  for (const layer of layers.splice(0)) layer.agent.destroy();
});

function told() {
  const exchanges: ObservedExchange[] = [];
  const evidence: Evidence[] = [];
  const layer = layerOf({
    baseUrl: "https://api.example.test/cloud/",
    apiKey: KEY,
    pacer: { wait: async () => {} },
    by: "test",
    exchanged: (exchange) => exchanges.push(exchange),
    record: (e) => evidence.push(e),
  });
  layers.push(layer);
  const call: Request = { method: "GET", path: regions.path, query: { key: KEY } };
  const sent = { call, url: `/cloud${regions.path}?key=${KEY}`, seq: 41, at: 1_000 };
  return { layer, exchanges, evidence, sent };
}

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("evidence", { timeout: 30_000 }, () => {
  it("an answer cut at its bound: recorded with its status and no body, the error it ends in knows its evidence", () => {
    const { layer, exchanges, evidence, sent } = told();
    const thrown = cutAnswer(layer, sent, 12, new TooLarge(200, { "content-type": "application/json" }, 64));
    expect(thrown).toBeInstanceOf(CutAnswerError);
    expect(thrown.message).toBe(
      `${layer.redact(`GET ${sent.url}`)}: ${cutMessage(layer.maxBodyBytes)} (status 200)`,
    );
    expect(exchanges).toEqual([
      expect.objectContaining({
        seq: 41,
        url: `${regions.path}?key=${KEY}`,
        status: 200,
        body: undefined,
        by: "test",
        tokenRole: "client",
        error: cutMessage(64),
      }),
    ]);
    expect(evidence).toEqual([expect.objectContaining({ status: 200, seq: 41, durationMs: 12, at: 1_000 })]);
    expect(evidenceOf(thrown)).toBe(evidence[0]);
    expect(JSON.stringify(evidence)).not.toContain(KEY);
    expect(thrown.message).not.toContain(KEY);
  });

  it("no answer: recorded with its reason and the pause before the next try; the last one's error knows it", () => {
    const { layer, exchanges, evidence, sent } = told();
    const lost = noAnswer(layer, sent, 5, new Error(`connect ECONNREFUSED ${KEY}`), 1000);
    expect(exchanges[0]).toMatchObject({
      status: null,
      body: undefined,
      error: `no answer: connect ECONNREFUSED ${KEY}`,
    });
    expect(lost).toBe(evidence[0]);
    expect(lost).toMatchObject({ status: null, waitedMs: 1000, seq: 41 });
    expect(JSON.stringify(lost)).not.toContain(KEY);
    expect("waitedMs" in noAnswer(layer, sent, 5, new Error("reset"), undefined)).toBe(false);
    const thrown = noAnswerError(layer, sent, new Error("reset"), lost, { tries: 4, ms: 3210 });
    expect(thrown).toBeInstanceOf(NoAnswerError);
    expect(thrown.message).toMatch(/: no answer after 4 tries in 3\.2 s \(the last: reset\)$/);
    expect(thrown.message).not.toContain(KEY);
    expect(evidenceOf(thrown)).toBe(lost);
  });

  it("an answer: decoded for the caller, its evidence on the URL as sent, told and kept only when handed out", () => {
    const { layer, exchanges, evidence, sent } = told();
    const raw = {
      requestBody: undefined,
      status: 200,
      requestHeaders: { Authorization: `${tokenPrefix}${KEY}` },
      responseHeaders: { "content-type": "application/json" },
      text: '{"count":0,"results":[]}',
    };
    const { exchange, answer, evidence: shown } = answered(layer, sent, raw, 7);
    expect(exchange).toMatchObject({ seq: 41, status: 200, durationMs: 7, body: raw.text });
    expect(answer.url).toBe(sent.url);
    expect(answer.status).toBe(200);
    expect(shown.path).not.toContain(KEY);
    expect(shown.path).toContain(`/cloud${regions.path}`);
    expect(exchanges).toEqual([]);
    expect(evidenceOf(answer)).toBeUndefined();
    handOut(layer, exchange, shown, answer);
    expect(exchanges).toEqual([exchange]);
    expect(evidence).toEqual([shown]);
    expect(evidenceOf(answer)).toBe(shown);
  });
});
