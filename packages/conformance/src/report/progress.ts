// Where a long run is, while it runs, and where its time went, once it has. A run against a slow
// or faulty target may wait minutes in retries and pauses: on a terminal one status line, redrawn
// in place, says how many results are done, what runs, how many requests were sent and what is
// waited for and why; without a terminal (CI) a plain "still running: …" line is printed whenever
// nothing else was for HEARTBEAT_MS. Off unless asked (`RunIo.progress`): library use and tests
// stay quiet. The scenarios run in a vitest worker thread: what their HTTP layer does reaches the
// main thread over a BroadcastChannel named in the run's context (`RunContext.activity`).

import { BroadcastChannel } from "node:worker_threads";
import type { Activity, ActivityHooks, Wait } from "../shared/activity.js";
import type { TimeAccount } from "../shared/results.js";

export function hooksOf(tell: (activity: Activity) => void): ActivityHooks {
  return {
    sending: (request) => tell({ kind: "sent", ...request }),
    waiting: (wait) => tell({ kind: "wait", ...wait }),
    exchanged: (at, ms) => tell({ kind: "exchange", at, ms }),
  };
}

let posting: { name: string; channel: BroadcastChannel } | undefined;

/** Tells the main thread's run (a scenario worker's side of the channel). */
export function activityPoster(name: string): (activity: Activity) => void {
  if (posting?.name !== name) {
    posting?.channel.close();
    const channel = new BroadcastChannel(name);
    // A worker that has nothing else to do is not kept alive by its channel.
    channel.unref();
    posting = { name, channel };
  }
  const { channel } = posting;
  return (activity) => channel.postMessage(activity);
}

/** Listens on the channel (the main thread's side); `close` stops. */
export function activityListener(name: string, heard: (activity: Activity) => void): { close(): void } {
  const channel = new BroadcastChannel(name);
  channel.unref();
  channel.onmessage = (event) => heard((event as { data: unknown }).data as Activity);
  return { close: () => channel.close() };
}

type Span = [number, number];

/** The spans' union, sorted and merged. */
function union(spans: Span[]): Span[] {
  const sorted = spans.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const merged: Span[] = [];
  for (const [a, b] of sorted) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

const length = (spans: Span[]) => spans.reduce((sum, [a, b]) => sum + (b - a), 0);

/** Time in `spans` not in `covered` (both unions). */
function outside(spans: Span[], covered: Span[]): number {
  let ms = 0;
  for (const [a, b] of spans) {
    let inside = 0;
    for (const [c, d] of covered) inside += Math.max(0, Math.min(b, d) - Math.max(a, c));
    ms += b - a - inside;
  }
  return ms;
}

/** Collects a run's exchanges and waits, and accounts for its time. */
export function createTimeline() {
  let sent = 0;
  const exchanges: Span[] = [];
  const waits: (Span & { reason?: string })[] = [];
  const reasons: Span[][] = [];
  const reasonNames: string[] = [];
  return {
    heard(activity: Activity) {
      if (activity.kind === "sent") sent++;
      else if (activity.kind === "exchange") exchanges.push([activity.at, activity.at + activity.ms]);
      else if (activity.kind === "wait") {
        let index = reasonNames.indexOf(activity.reason);
        if (index < 0) {
          index = reasonNames.push(activity.reason) - 1;
          reasons.push([]);
        }
        reasons[index]?.push([activity.at, activity.at + activity.ms]);
        waits.push([activity.at, activity.at + activity.ms]);
      }
    },
    /**
     * The run's `durationMs` from `startedAt`, split: requests in flight, then waits (a retry's
     * before the pacer's: a pause the pacer made during a retry's wait is the retry's), then the
     * rest. Overlaps (a burst's parallel requests) are counted once, so the parts add up.
     */
    account(startedAt: number, durationMs: number): TimeAccount {
      const end = startedAt + durationMs;
      const clip = (spans: Span[]) =>
        union(spans.map(([a, b]): Span => [Math.max(a, startedAt), Math.min(b, end)]));
      let covered = clip(exchanges);
      const requestsMs = length(covered);
      const order = reasonNames
        .map((reason, i) => ({ reason, spans: reasons[i] ?? [] }))
        .sort((x, y) => Number(x.reason === "pacing") - Number(y.reason === "pacing"));
      const accounted = order.map(({ reason, spans }) => {
        const own = clip(spans);
        const ms = outside(own, covered);
        covered = union([...covered, ...own]);
        return { reason, count: spans.length, ms: Math.round(ms) };
      });
      const waited = accounted.reduce((sum, w) => sum + w.ms, 0);
      return {
        requests: { count: sent, ms: Math.round(requestsMs) },
        waits: accounted.sort((a, b) => b.ms - a.ms),
        suiteMs: Math.max(0, Math.round(durationMs - requestsMs - waited)),
      };
    },
  };
}

/** Where progress is drawn: a terminal (isTTY) gets a status line; anything else plain lines. */
export interface ProgressOut {
  isTTY?: boolean;
  columns?: number;
  write(text: string): void;
}

/** How often a terminal's status line is redrawn, at most and (the clock in it moving) at least. */
export const REDRAW_MS = 250;
/** Without a terminal: the longest time without a printed line. */
export const HEARTBEAT_MS = 10_000;
/** The most of a URL the status says. */
const URL_SHOWN = 120;

export interface Progress {
  /** Prints a line (already made printable): over a terminal's status line, which is drawn again below it. */
  line(text: string): void;
  /** Prints through another writer (stderr), the status line cleared first. */
  above(print: () => void): void;
  heard(activity: Activity): void;
  /** What runs now (a phase, a scenario); how many results are done of how many. */
  doing(text: string): void;
  done(count: number, total?: number): void;
  /** Clears the status line and stops the clock. */
  stop(): void;
}

const CLEAR = "\r\x1b[2K";

/** Milliseconds as a short duration: "0.4 s", "12 s", "2 min 5 s". */
export function shortDuration(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  const s = Math.round(ms / 1000);
  return s < 120 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * The progress of a run printed to `out`. `printable` makes the status line safe to print (the
 * run's redactor, then forTerminal): it quotes URLs and ids a target may have chosen.
 */
export function createProgress(
  out: ProgressOut,
  printable: (text: string) => string,
  options: { total?: number } = {},
): Progress {
  const tty = out.isTTY === true;
  const startedAt = Date.now();
  const state: StatusState = { total: options.total, done: 0, doing: "starting", sent: 0, waits: [] };
  let shown = false;
  let drawnAt = 0;
  let printedAt = startedAt;
  let stopped = false;
  const status = () => printable(statusText(state, startedAt, Date.now()));

  const draw = () => {
    if (stopped) return;
    out.write(`${CLEAR}${fitted(status(), out.columns)}`);
    shown = true;
    drawnAt = Date.now();
  };
  const clear = () => {
    if (shown) out.write(CLEAR);
    shown = false;
  };

  const timer = setInterval(() => {
    const now = Date.now();
    forgetEnded(state.waits, now);
    if (tty) draw();
    // The tick is late by up to REDRAW_MS: a line is due one tick early, so no gap passes 10 s.
    else if (now - printedAt > HEARTBEAT_MS - REDRAW_MS) {
      out.write(`still running: ${status()}\n`);
      printedAt = now;
    }
  }, REDRAW_MS);
  timer.unref();

  // Events redraw at once, but no more often than REDRAW_MS: a burst of requests is one redraw.
  const changed = () => {
    if (tty && Date.now() - drawnAt >= REDRAW_MS) draw();
  };
  /** A line printed, by `print`, with the status line cleared before and drawn again after it. */
  const printing = (print: () => void) => {
    clear();
    print();
    printedAt = Date.now();
    if (tty) draw();
  };

  return {
    line: (text) => printing(() => out.write(`${text}\n`)),
    above: printing,
    heard(activity) {
      const news = hear(state, activity);
      // A wait is news at once: it is what a reader wonders about.
      if (news === "now" && tty) draw();
      else if (news === "changed") changed();
    },
    doing(text) {
      state.doing = text;
      changed();
    },
    done(count, of) {
      state.done = count;
      if (of !== undefined) state.total = of;
      changed();
    },
    stop() {
      clearInterval(timer);
      clear();
      stopped = true;
    },
  };
}

/** What the status line says, as the run's activity changes it. */
interface StatusState {
  total: number | undefined;
  done: number;
  doing: string;
  sent: number;
  lastSent?: string;
  /** The waits heard, until the clock's next tick after they end. */
  waits: Wait[];
}

/** Takes an activity into the state: "now" when the line is to be drawn at once, "changed" when it may wait. */
function hear(state: StatusState, activity: Activity): "now" | "changed" | undefined {
  if (activity.kind === "scenario") state.doing = activity.id;
  else if (activity.kind === "sent") {
    state.sent++;
    state.lastSent = `${activity.method} ${activity.url}`;
  } else if (activity.kind === "wait") {
    if (activity.reason === "pacing") return undefined;
    state.waits.push(activity);
    return "now";
  } else return undefined;
  return "changed";
}

/** Waits over are forgotten; those running stay until they end. */
function forgetEnded(waits: Wait[], now: number): void {
  for (let i = waits.length - 1; i >= 0; i--) {
    const w = waits[i];
    if (w && w.at + w.ms <= now) waits.splice(i, 1);
  }
}

// A URL a fuzz run made up may be kilobytes long: a CI log gets its start, as a terminal does.
const cut = (url: string) =>
  [...url].length > URL_SHOWN ? `${[...url].slice(0, URL_SHOWN).join("")}…` : url;

/** The status line's words, before they are made printable. */
function statusText(state: StatusState, startedAt: number, now: number): string {
  const { total, done, doing, sent, lastSent, waits } = state;
  // fuzz has no results until its end: its phase and requests say where it is.
  const results = total === undefined ? (done > 0 ? [`${done} results`] : []) : [`${done}/${total} results`];
  // The clock early in the line: a long wait's URL may not fit a narrow terminal.
  const parts = [
    ...results,
    shortDuration(now - startedAt),
    doing,
    `${sent} ${sent === 1 ? "request" : "requests"} sent`,
  ];
  // The waits still running, longest first: a retry's reason says why nothing moves.
  const running = waits.filter((w) => w.at + w.ms > now && w.reason !== "pacing");
  for (const w of running.sort((a, b) => b.ms - a.ms).slice(0, 2))
    parts.push(`waiting ${shortDuration(w.ms)} ${w.reason} (${w.method} ${cut(w.url)})`);
  if (running.length === 0 && lastSent) parts.push(`last: ${cut(lastSent)}`);
  return parts.join(" · ");
}

/** One row: a wrapped status line would not be cleared by the next redraw. */
function fitted(text: string, columns: number | undefined): string {
  const width = Math.max(20, (columns ?? 80) - 1);
  return [...text].length > width ? `${[...text].slice(0, width - 1).join("")}…` : text;
}
