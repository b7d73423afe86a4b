// Pacing and retries of the suite's HTTP layer, in-process: how many tries a call gets, which
// answers send it again and after how long, and which waits of the pacer are told. The rate's
// status and period are the spec's (requestRate), never typed here.

import { afterEach, describe, expect, it, vi } from "vitest";
import type { Request } from "../src/facts/api.js";
import { requestRate } from "../src/facts/rate.js";
import type { Answer } from "../src/http/answer.js";
import { RETRIES, RETRY_PAUSE_MS, SERVER_ERROR_PAUSE_MS } from "../src/http/bounds.js";
import { againAfter, paced, pauseAfter, triesOf } from "../src/http/retries.js";
import { stallNotice } from "../src/http/stall.js";

const call = (method: Request["method"], more: Partial<Request> = {}): Request => ({
  method,
  path: "/v1/things",
  ...more,
});
const answerWith = (headers: Record<string, string>) => ({ headers }) as unknown as Answer;

afterEach(() => {
  vi.useRealTimers();
});

// In-process, fake time where there is any: the bound is for a machine under load, never a wait.
describe("pacing and retries", { timeout: 30_000 }, () => {
  it("an idempotent call gets RETRIES more tries without an answer; a POST, or retry: false, one", () => {
    expect(triesOf(call("GET"), 0.5)).toEqual({
      retry: true,
      idempotent: true,
      retries: RETRIES,
      tries: RETRIES + 1,
      pauseMs: RETRY_PAUSE_MS * 0.5,
    });
    expect(triesOf(call("PUT", { retries: 1 }), 1).tries).toBe(2);
    expect(triesOf(call("POST"), 1)).toMatchObject({ idempotent: false, tries: 1 });
    expect(triesOf(call("GET", { retry: false }), 1)).toMatchObject({ retry: false, tries: 1 });
  });

  it("the rate's status goes again for any method; a 5xx only for an idempotent call, within its retries", () => {
    const limited = requestRate().exceededStatus;
    const get = triesOf(call("GET", { retries: 1 }), 1);
    const post = triesOf(call("POST"), 1);
    expect(againAfter(limited, post, 0, 0)).toEqual({ again: true, limited: true, serverError: false });
    expect(againAfter(503, get, 0, 0)).toEqual({ again: true, limited: false, serverError: true });
    expect(againAfter(503, get, 1, 1).again).toBe(false); // its one retry used
    expect(againAfter(500, post, 0, 0)).toEqual({ again: false, limited: false, serverError: false });
    expect(againAfter(501, get, 0, 0).again).toBe(false);
    expect(againAfter(200, get, 0, 0).again).toBe(false);
    // However many retries a call asks for, an answered one goes again at most RETRIES times.
    expect(againAfter(limited, triesOf(call("GET", { retries: 10 }), 1), RETRIES, 0).again).toBe(false);
    expect(againAfter(limited, triesOf(call("GET", { retry: false }), 1), 0, 0).again).toBe(false);
  });

  it("waits as the answer advises (not scaled), else the seed's pause (scaled), never past 10 s", () => {
    expect(pauseAfter(answerWith({ "retry-after": "2" }), true, 0.01)).toBe(2000);
    expect(pauseAfter(answerWith({ "retry-after": "60" }), true, 1)).toBe(10_000);
    expect(pauseAfter(answerWith({}), true, 0.5)).toBe(
      Math.min(requestRate().periodSeconds * 1000, 10_000) * 0.5,
    );
    expect(pauseAfter(answerWith({}), false, 0.5)).toBe(SERVER_ERROR_PAUSE_MS * 0.5);
  });

  it("a wait of the pacer is told with when it began; none is told when the pacer let the call go", async () => {
    vi.useFakeTimers({ toFake: ["Date", "performance"], now: 1_000_000 });
    const told: [number, number][] = [];
    await paced({ wait: async () => void vi.advanceTimersByTime(250.4) }, (at, ms) => told.push([at, ms]));
    await paced({ wait: async () => {} }, (at, ms) => told.push([at, ms]));
    expect(told).toEqual([[1_000_000, 250]]);
  });

  it("a stalled request is told redacted, with its try and the bounds; no one to tell, nothing is made", () => {
    const told: unknown[] = [];
    const redact = (text: string) => text.replaceAll("k3y", "[key]");
    const sent = {
      method: "GET",
      url: "/v1/things?key=k3y",
      origin: "http://k3y.test",
      try: 2,
      tries: 4,
      timeoutMs: 15_000,
      pauseMs: 1000,
    };
    expect(stallNotice(undefined, redact, sent)).toBeUndefined();
    stallNotice((stall) => told.push(stall), redact, sent)?.();
    expect(told).toEqual([
      expect.objectContaining({
        url: "/v1/things?key=[key]",
        origin: "http://[key].test",
        try: 2,
        afterMs: 3000,
      }),
    ]);
    expect(JSON.stringify(told)).not.toContain("k3y");
  });
});
