// The judge's rate windows (src/judge/rate-windows.ts), fed answers at times made up here: how many
// of a token's 2xx answers lie within the spec's period ending with each, whether an exceeded status
// did, and what it forgets past its bounds.

import { describe, expect, it } from "vitest";
import { requestRate } from "../src/facts/rate.js";
import { createRateWindows } from "../src/judge/rate-windows.js";

const { periodSeconds, exceededStatus } = requestRate();
const period = periodSeconds * 1000;
const T = 1_000_000;

const windows = (over: { tokens?: number; succeeded?: number } = {}) =>
  createRateWindows({
    tokens: over.tokens ?? 4,
    succeeded: over.succeeded ?? 10,
    periodSeconds,
    exceededStatus,
  });

describe("rate windows", () => {
  it("counts a token's 2xx answers that started and ended within the period ending now", () => {
    const w = windows();
    expect(w.answered("token 1", T, T + 1, 200)).toEqual({ succeeded: 1, limited: false });
    expect(w.answered("token 1", T + 2, T + 3, 201)).toEqual({ succeeded: 2, limited: false });
    // Not a 2xx: not counted, and not an exceeded status either.
    expect(w.answered("token 1", T + 4, T + 5, 500)).toEqual({ succeeded: 2, limited: false });
    // Another token has a window of its own.
    expect(w.answered("token 2", T + 4, T + 5, 200)).toEqual({ succeeded: 1, limited: false });
    // A period after the first ended, it is out of the window; the second is still in.
    expect(w.answered("token 1", T + 2 + period, T + 2 + period, 200)).toEqual({
      succeeded: 2,
      limited: false,
    });
  });

  it("a slow answer, longer than a period, is not counted: it only hides a burst", () => {
    expect(windows().answered("token 1", T, T + period + 1, 200)).toEqual({ succeeded: 0, limited: false });
  });

  it("an exceeded status within the period says the rate was limited, until a period has passed", () => {
    const w = windows();
    expect(w.answered("token 1", T, T + 1, exceededStatus)).toEqual({ succeeded: 0, limited: true });
    expect(w.answered("token 1", T + 2, T + 3, 200)).toEqual({ succeeded: 1, limited: true });
    expect(w.answered("token 1", T + 2 + period, T + 2 + period, 200)).toEqual({
      succeeded: 2,
      limited: false,
    });
  });

  it("keeps at most `succeeded` answers per token, and `tokens` tokens, the least recently seen forgotten", () => {
    const w = windows({ tokens: 1, succeeded: 3 });
    for (let i = 0; i < 5; i++) w.answered("token 1", T + i, T + i, 200);
    expect(w.answered("token 1", T + 5, T + 5, 200).succeeded).toBe(3);
    w.answered("token 2", T + 6, T + 6, exceededStatus);
    // Token 1's window went to make room for token 2's.
    expect(w.answered("token 1", T + 7, T + 7, 200)).toEqual({ succeeded: 1, limited: false });
    // And token 2's in turn: its exceeded status, within the period, is forgotten with it.
    expect(w.answered("token 2", T + 8, T + 8, 200)).toEqual({ succeeded: 1, limited: false });
  });
});
