// Sends a recording's planned entries again to a target through the suite's HTTP layer (bounded in
// bytes and time, paced, 429s waited out), one after the other in recorded order: a write replayed
// with --allow-writes may be what a later read reads. The recorded credentials are never sent (a
// recording has them redacted, and they are the recorder's): each request carries the key the
// operation's security asks for, from the command's options or the embedded simulator.

import { keyFor } from "../facts/operations.js";
import type { Http } from "../http/http.js";
import type { PlannedEntry } from "./plan.js";
import type { AnswerText } from "./shape.js";

export interface Replayed {
  entry: PlannedEntry;
  answer: AnswerText;
  /** Why there was no answer (the exchange's status is then null). */
  error?: string;
}

/**
 * Replays `entries` in order; stops before the next one once `signal` is aborted (a request in
 * flight ends within the HTTP layer's bounds). `done` is told of each as it is answered.
 */
export async function replayEntries(
  http: Pick<Http, "send">,
  entries: readonly PlannedEntry[],
  {
    signal,
    hasResellerKey,
    done,
  }: { signal?: AbortSignal; hasResellerKey: boolean; done?: (replayed: Replayed) => void },
): Promise<Replayed[]> {
  const out: Replayed[] = [];
  for (const entry of entries) {
    if (signal?.aborted) break;
    const replayed = await replayOne(http, entry, hasResellerKey);
    out.push(replayed);
    done?.(replayed);
  }
  return out;
}

async function replayOne(
  http: Pick<Http, "send">,
  entry: PlannedEntry,
  hasResellerKey: boolean,
): Promise<Replayed> {
  const { exchange, operation } = entry;
  const [path = "/", ...rest] = exchange.url.split("?");
  const key = keyFor(operation);
  try {
    const answer = await http.send({
      method: exchange.method.toUpperCase() as "GET",
      // The HTTP layer fills `{name}` templates: a recorded path is sent as recorded, braces and all.
      path: path.replace(/[{}]/g, (c) => encodeURIComponent(c)),
      rawQuery: rest.join("?"),
      // Without a reseller key, the reseller's operations go with the client key: the target's
      // refusal is then its answer to compare, and the report says the key was missing.
      auth: key === "reseller" && !hasResellerKey ? "client" : key,
      ...(exchange.requestBody === undefined ? {} : { body: parsedBody(exchange.requestBody) }),
    });
    return { entry, answer: { status: answer.status, headers: answer.headers, text: answer.text } };
  } catch (error) {
    return { entry, answer: { status: null, headers: {}, text: undefined }, error: (error as Error).message };
  }
}

/** A recorded write's body as JSON, as the HTTP layer sends bodies; text that is not JSON as a string. */
function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
