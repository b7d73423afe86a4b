// A request that has had no answer for a while, said within seconds: what is waited for, how long
// it will wait and how many tries are left.

import { NOTICE_AFTER_MS } from "./bounds.js";
import { seconds } from "./seconds.js";

/** A request that has had no answer for NOTICE_AFTER_MS, and how long the suite will keep trying. */
export interface Stall {
  method: string;
  /** Path and query as sent (redacted). */
  url: string;
  /** Where it was sent: the target's origin. */
  origin: string;
  /** This try (1 is the first send) of how many the request gets at most. */
  try: number;
  tries: number;
  /** How long it has waited (NOTICE_AFTER_MS), how long each try waits, the pause between tries. */
  afterMs: number;
  timeoutMs: number;
  pauseMs: number;
  /** All of it in a line (stallMessage), redacted. */
  message: string;
}

/**
 * A stalled request in a line: what is waited for, how long it will wait, how many tries are left,
 * and about how long that is in all (first try) or from now (later tries).
 */
export function stallMessage(stall: Omit<Stall, "message">): string {
  const left = stall.tries - stall.try;
  const then = left === 0 ? "then give up" : `then retry ${left} more ${left === 1 ? "time" : "times"}`;
  const which = stall.try > 1 ? ` (try ${stall.try} of ${stall.tries})` : "";
  const inAll = stall.tries * stall.timeoutMs + (stall.tries - 1) * stall.pauseMs;
  const more = stall.timeoutMs - stall.afterMs + left * (stall.pauseMs + stall.timeoutMs);
  const figure = stall.try === 1 ? `about ${seconds(inAll)} s in all` : `about ${seconds(more)} s more`;
  return `Waiting for ${stall.method} ${stall.url} at ${stall.origin}${which}: no answer after ${seconds(stall.afterMs)} s; will wait up to ${seconds(stall.timeoutMs)} s, ${then} (${figure}).`;
}

/**
 * What a try calls when its request has waited NOTICE_AFTER_MS: `stalled` told of it, redacted;
 * undefined when no one is to be told.
 */
export function stallNotice(
  stalled: ((stall: Stall) => void) | undefined,
  redact: (text: string) => string,
  sent: {
    method: string;
    url: string;
    origin: string;
    try: number;
    tries: number;
    timeoutMs: number;
    pauseMs: number;
  },
): (() => void) | undefined {
  return (
    stalled &&
    (() => {
      const stall = {
        method: sent.method,
        url: redact(sent.url),
        origin: redact(sent.origin),
        try: sent.try,
        tries: sent.tries,
        afterMs: NOTICE_AFTER_MS,
        timeoutMs: sent.timeoutMs,
        pauseMs: sent.pauseMs,
      };
      stalled({ ...stall, message: redact(stallMessage(stall)) });
    })
  );
}
