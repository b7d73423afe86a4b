// A call, sent until it is answered or has no tries left: paced, each try sent within its bounds
// (send-one.ts), its evidence left (evidence.ts), and sent again as retries.ts says.

import type { Request } from "../facts/api.js";
import type { Answer } from "./answer.js";
import { answered, cutAnswer, handOut, noAnswer, noAnswerError } from "./evidence.js";
import type { Layer } from "./layer.js";
import { TooLarge } from "./read-answer.js";
import { curlOfCall } from "./request.js";
import { nextSeq, remember } from "./resends.js";
import { againAfter, paced, pauseAfter, sleep, triesOf } from "./retries.js";
import { onceFresh, type Raw } from "./send-one.js";
import { stallNotice } from "./stall.js";
import { urlOf } from "./url.js";

/** Sends `call` through `layer`; `resend` is what sending it again later (resendOf) calls. */
export async function sendCall<Op>(
  layer: Layer,
  call: Request,
  resend: (call: Request) => Promise<Answer>,
): Promise<Answer<Op>> {
  const { options, redact } = layer;
  const url = urlOf(layer.prefix, call);
  const tries = triesOf(call, layer.scale);
  let first: number | undefined;
  let serverErrorRetries = 0;
  // The layer's redactor holds only the target's keys (the same text gives the same result), and the
  // URL is the same on every try: redacted once for the pacing waits and the sends it is told in.
  let shown: string | undefined;
  const shownUrl = () => {
    shown ??= redact(url);
    return shown;
  };
  const waiting = (reason: string, at: number, ms: number) =>
    options.waiting?.({ reason, at, ms, method: call.method, url: shownUrl() });
  for (let attempt = 0; ; attempt++) {
    if (call.paced ?? true) await paced(options.pacer, (at, ms) => waiting("pacing", at, ms));
    const seq = nextSeq();
    remember(
      seq,
      () => resend(call),
      (variables) => curlOfCall(call, layer.base.origin, url, options, variables),
    );
    const sent = { call, url, seq, at: Date.now() };
    options.sending?.({ method: call.method, url: shownUrl() });
    const started = performance.now();
    first ??= started;
    const stalled = stallNotice(options.stalled, redact, {
      method: call.method,
      url,
      origin: layer.base.origin,
      try: attempt + 1,
      tries: tries.tries,
      timeoutMs: layer.timeoutMs,
      pauseMs: tries.pauseMs,
    });
    let raw: Raw;
    try {
      raw = await onceFresh(layer, call, url, stalled);
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      if (error instanceof TooLarge) throw cutAnswer(layer, sent, durationMs, error);
      const again = attempt + 1 < tries.tries;
      const lost = noAnswer(layer, sent, durationMs, error, again ? Math.round(tries.pauseMs) : undefined);
      if (!again)
        throw noAnswerError(layer, sent, error, lost, { tries: tries.tries, ms: performance.now() - first });
      waiting("after no answer", Date.now(), tries.pauseMs);
      await sleep(tries.pauseMs);
      continue;
    }
    const { exchange, answer, evidence } = answered(
      layer,
      sent,
      raw,
      Math.round(performance.now() - started),
    );
    const { again, limited, serverError } = againAfter(answer.status, tries, attempt, serverErrorRetries);
    if (again && serverError) serverErrorRetries++;
    if (again) exchange.retried = true;
    handOut(layer, exchange, evidence, answer);
    // The operation's type is attached here: what the body holds is checked by expectStatus.
    if (!again) return answer as Answer<Op>;
    const wait = pauseAfter(answer, limited, layer.scale);
    // The record holds this evidence already: its wait is added to it, not told again.
    evidence.waitedMs = Math.round(wait);
    waiting(`after ${answer.status}`, Date.now(), wait);
    await sleep(wait);
  }
}
