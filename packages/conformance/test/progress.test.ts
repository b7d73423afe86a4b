// A long run says where it is: on a terminal one status line redrawn in place (results done of
// total, what runs, requests sent, the waits running and why), never still for more than a
// redraw; without a terminal a plain "still running: …" line whenever nothing was printed for
// 10 s; never a token. Time is faked: nothing here depends on the machine's speed.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createProgress,
  createTimeline,
  HEARTBEAT_MS,
  type ProgressOut,
  REDRAW_MS,
} from "../src/report/progress.js";
import { runOutput } from "../src/report/run-output.js";

const CLEAR = "\r\x1b[2K";

function capture(isTTY: boolean): ProgressOut & { writes: { at: number; text: string }[] } {
  const writes: { at: number; text: string }[] = [];
  return { isTTY, columns: 200, writes, write: (text) => void writes.push({ at: Date.now(), text }) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("on a terminal", () => {
  it("redraws one status line: results done of total, what runs, requests sent, a wait and its reason", () => {
    const out = capture(true);
    const progress = createProgress(out, (t) => t, { total: 90 });
    progress.done(3);
    progress.heard({ kind: "scenario", id: "pagination.page.listRegions" });
    progress.heard({ kind: "sent", method: "GET", url: "/cloud/v1/regions?page=2" });
    progress.heard({
      kind: "wait",
      reason: "after 429",
      at: Date.now(),
      ms: 1000,
      method: "GET",
      url: "/cloud/v1/regions?page=2",
    });
    vi.advanceTimersByTime(REDRAW_MS);
    const last = out.writes.at(-1)?.text ?? "";
    expect(last.startsWith(CLEAR)).toBe(true);
    expect(last).not.toContain("\n");
    expect(last).toContain("3/90 results");
    expect(last).toContain("pagination.page.listRegions");
    expect(last).toContain("1 request sent");
    expect(last).toContain("waiting 1 s after 429 (GET /cloud/v1/regions?page=2)");
    // Once the wait is over it is no longer said.
    vi.advanceTimersByTime(1500);
    expect(out.writes.at(-1)?.text).not.toContain("waiting");
    progress.stop();
  });

  it("is never still for more than a second while nothing happens", () => {
    const out = capture(true);
    const progress = createProgress(out, (t) => t, { total: 5 });
    vi.advanceTimersByTime(60_000);
    const times = out.writes.map((w) => w.at);
    expect(times.length).toBeGreaterThan(50);
    for (let i = 1; i < times.length; i++)
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeLessThanOrEqual(1000);
    // The clock in it moves.
    expect(out.writes.at(-1)?.text).toContain("60 s");
    progress.stop();
  });

  it("clears the status line before an ordinary line and draws it again below", () => {
    const out = capture(true);
    const progress = createProgress(out, (t) => t, { total: 5 });
    vi.advanceTimersByTime(REDRAW_MS);
    out.writes.length = 0;
    progress.line("✓ [  1] auth.wrong-token (must) 3 ms");
    const text = out.writes.map((w) => w.text).join("");
    expect(text.startsWith(`${CLEAR}✓ [  1] auth.wrong-token (must) 3 ms\n${CLEAR}`)).toBe(true);
    progress.stop();
    expect(out.writes.at(-1)?.text).toBe(CLEAR);
    // Stopped: nothing more is drawn.
    const count = out.writes.length;
    vi.advanceTimersByTime(5000);
    expect(out.writes.length).toBe(count);
  });

  it("a burst of events is one redraw, not one each", () => {
    const out = capture(true);
    const progress = createProgress(out, (t) => t, { total: 5 });
    vi.advanceTimersByTime(REDRAW_MS);
    out.writes.length = 0;
    for (let i = 0; i < 150; i++) progress.heard({ kind: "sent", method: "GET", url: `/x/${i}` });
    expect(out.writes.length).toBeLessThanOrEqual(1);
    vi.advanceTimersByTime(REDRAW_MS);
    expect(out.writes.at(-1)?.text).toContain("150 requests sent");
    progress.stop();
  });
});

describe("without a terminal (CI)", () => {
  it("prints a plain 'still running' line when nothing was printed for 10 s, and no control codes", () => {
    const out = capture(false);
    const progress = createProgress(out, (t) => t, { total: 90 });
    progress.done(12);
    progress.heard({ kind: "scenario", id: "tasks.poll" });
    vi.advanceTimersByTime(HEARTBEAT_MS - REDRAW_MS);
    expect(out.writes).toEqual([]);
    vi.advanceTimersByTime(REDRAW_MS);
    expect(out.writes).toHaveLength(1);
    expect(out.writes[0]?.text).toMatch(
      /^still running: 12\/90 results · 10 s · tasks\.poll · 0 requests sent\n$/,
    );
    // A line printed starts the 10 s again.
    vi.advanceTimersByTime(5000);
    progress.line("✓ [ 13] tasks.poll (must) 15000 ms");
    vi.advanceTimersByTime(HEARTBEAT_MS - REDRAW_MS);
    expect(out.writes).toHaveLength(2);
    vi.advanceTimersByTime(REDRAW_MS);
    expect(out.writes).toHaveLength(3);
    // Over a minute of nothing: a line at least every 10 s.
    vi.advanceTimersByTime(60_000);
    const times = out.writes.map((w) => w.at);
    for (let i = 1; i < times.length; i++)
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeLessThanOrEqual(HEARTBEAT_MS);
    const printed = out.writes.map((w) => w.text).join("");
    expect(printed.includes("\r") || printed.includes("\x1b")).toBe(false);
    progress.stop();
  });
});

describe("what progress prints", () => {
  it("says the start of a very long URL only", () => {
    const out = capture(false);
    const progress = createProgress(out, (t) => t);
    progress.heard({ kind: "sent", method: "GET", url: `/cloud/v1/tasks?task_type=${"x".repeat(5000)}` });
    vi.advanceTimersByTime(HEARTBEAT_MS);
    progress.stop();
    expect(out.writes[0]?.text.length).toBeLessThan(250);
    expect(out.writes[0]?.text).toContain("last: GET /cloud/v1/tasks?task_type=xxx");
  });

  it("never holds a token: the run's redactor covers the status line", () => {
    const out = capture(false);
    const output = runOutput(
      { apiKeyEnv: "K", resellerApiKeyEnv: "R", target: "simulator" },
      { env: {}, progress: out },
    );
    output.targetKeys(["12345$s3cretTokenValue"]);
    output.progress?.heard({
      kind: "sent",
      method: "GET",
      url: "/cloud/v1/projects?name=12345$s3cretTokenValue",
    });
    vi.advanceTimersByTime(HEARTBEAT_MS);
    output.progress?.stop();
    const text = out.writes.map((w) => w.text).join("");
    expect(text).toContain("still running");
    expect(text).not.toContain("s3cretTokenValue");
  });

  it("is off unless asked: a run's lines go to `write`, nothing else is drawn", () => {
    const lines: string[] = [];
    const output = runOutput(
      { apiKeyEnv: "K", resellerApiKeyEnv: "R", target: "simulator" },
      { env: {}, write: (l) => lines.push(l) },
    );
    expect(output.progress).toBeUndefined();
    output.write("one");
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(["one"]);
  });
});

describe("the time account", () => {
  it("adds up: requests in flight (overlaps once), waits by reason, the suite's own time", () => {
    const timeline = createTimeline();
    const start = 1_000_000;
    const exchange = (at: number, ms: number) => timeline.heard({ kind: "exchange", at: start + at, ms });
    const wait = (reason: string, at: number, ms: number) =>
      timeline.heard({ kind: "wait", reason, at: start + at, ms, method: "GET", url: "/x" });
    for (let i = 0; i < 4; i++) timeline.heard({ kind: "sent", method: "GET", url: "/x" });
    exchange(100, 50); // 100–150
    wait("after 500", 150, 1000); // 150–1150
    exchange(1150, 50); // 1150–1200
    // A burst: two requests at once count their wall time once.
    exchange(2000, 300); // 2000–2300
    exchange(2100, 300); // 2100–2400
    wait("pacing", 2400, 100); // 2400–2500
    // A pacer's pause inside a retry's wait is the retry's.
    wait("pacing", 500, 200);
    const account = timeline.account(start, 3000);
    expect(account.requests).toEqual({ count: 4, ms: 500 });
    expect(account.waits).toEqual([
      { reason: "after 500", count: 1, ms: 1000 },
      { reason: "pacing", count: 2, ms: 100 },
    ]);
    expect(account.suiteMs).toBe(1400);
    const sum = account.requests.ms + account.waits.reduce((s, w) => s + w.ms, 0) + account.suiteMs;
    expect(sum).toBe(3000);
  });
});
