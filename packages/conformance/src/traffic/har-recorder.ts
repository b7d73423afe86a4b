// `observe --record`: what the proxy passed, written as HAR 1.2 (the format: src/http/har.ts). What
// it writes holds no token: credentials are replaced by their label ("APIKey [token 1]"), and every
// body and header is redacted of every token seen.

import { closeSync, ftruncateSync, writeSync } from "node:fs";
import { type HarEntry, type HarHeader, INVALID_ANSWER, INVALID_SEPARATOR } from "../http/har.js";
import { openPrivate } from "../report/files.js";
import { REDACTED } from "../shared/redact.js";
import { UsageError } from "../shared/usage-error.js";
import { isCredentialHeader, isCredentialParameter } from "../spec/credential-names.js";
import type { PassedExchange } from "./proxy.js";

/**
 * What `observe --record` writes at most into one HAR file: past it, recording stops (the file is
 * closed whole and says so in `log.comment`). Well below what `verify --har` reads.
 */
export const MAX_RECORDING_BYTES = 256 * 2 ** 20;

/**
 * Headers whose value is a scheme and a credential: the credential is written as its label
 * ("APIKey [token 1]"), so that verify of the recording tells the tokens apart. Every other
 * credential header (isCredentialHeader) is written as `[credential]`.
 */
const LABELLED = new Set(["authorization", "proxy-authorization"]);

/** Where a recording stands: how many entries it holds, and why it stopped early if it did. */
export interface RecordingState {
  file: string;
  entries: number;
  /** False when recording stopped before the session ended (a bound, a disk error). */
  complete: boolean;
  /** Why it stopped early. */
  stopped?: string;
  /** The file system's error, when that is why. */
  error?: string;
  /** False when the file could not be closed as a whole HAR (the disk refused even that). */
  valid: boolean;
}

/**
 * Writes what the proxy passed as HAR 1.2, entry by entry as they pass (a long session keeps none
 * of them in memory). `label` names a credential ("token 1"), `redact` cleans every text of every
 * token seen; both come from the judge, so the recording and the report agree.
 *
 * The file never grows past `maxBytes` (MAX_RECORDING_BYTES), and a disk that refuses a write
 * (ENOSPC, EFBIG, EIO) never stops the session: in either case recording stops, `onStop` is told
 * once, and the file is cut back to its last whole entry and closed as a HAR that says why in
 * `log.comment`, so what was recorded can still be verified.
 */
export function createHarRecorder(
  file: string,
  meta: { upstream: string; version: string },
  label: (credential: string) => string,
  redact: (text: string) => string,
  more: { maxBytes?: number; onStop?: (message: string) => void } = {},
) {
  const base = new URL(meta.upstream);
  const prefix = base.pathname.replace(/\/$/, "");
  const maxBytes = more.maxBytes ?? MAX_RECORDING_BYTES;
  let fd: number;
  try {
    // Owner only (0600), as the reports: it holds what the client sent and the target answered.
    fd = openPrivate(file);
  } catch (error) {
    throw new UsageError(`--record ${file}: cannot write it (${(error as Error).message}).`);
  }
  const creator = { name: "platform-api-conformance observe", version: meta.version };
  let count = 0;
  let closed = false;
  /** Bytes of the file that hold whole entries (where it is cut back to when a write fails). */
  let whole = 0;
  const state: RecordingState = { file, entries: 0, complete: true, valid: true };
  // Room kept for the closing text and its comment, so a file at its bound still closes whole.
  const CLOSING_ROOM = 1024;

  /** Writes all of `text` (a write may take only part of it) at `whole`. */
  const write = (text: string) => {
    const bytes = Buffer.from(text);
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, whole + done);
    whole += bytes.length;
  };
  const stop = (why: string, error?: unknown) => {
    if (!state.complete) return;
    state.complete = false;
    state.stopped = why;
    if (error) state.error = (error as Error).message;
    try {
      more.onStop?.(`recording to ${file} stopped after ${count} entries: ${why}`);
    } catch {
      // Telling is best effort.
    }
  };
  const opening = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`;
  try {
    write(opening);
  } catch (error) {
    whole = 0;
    stop(`the file cannot be written (${(error as Error).message})`, error);
  }
  const headers = (raw: string[]): HarHeader[] => {
    const out: HarHeader[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] ?? "";
      const value = raw[i + 1] ?? "";
      if (!isCredentialHeader(name)) out.push({ name, value: redact(value) });
      else if (!LABELLED.has(name.toLowerCase())) out.push({ name, value: "[credential]" });
      else {
        const [scheme = "", ...rest] = value.trim().split(/\s+/);
        const secret = rest.join(" ");
        out.push({ name, value: secret ? `${scheme} [${label(secret)}]` : "[credential]" });
      }
    }
    return out;
  };
  return {
    add(passed: PassedExchange): void {
      if (closed || !state.complete) return;
      const { exchange } = passed;
      const url = new URL(`${base.origin}${prefix}${exchange.url}`);
      const text = exchange.body === undefined ? undefined : redact(exchange.body);
      const contentType = exchange.responseHeaders["content-type"] ?? "";
      const entry: HarEntry = {
        startedDateTime: new Date(exchange.at).toISOString(),
        time: Math.round(exchange.durationMs * 1000) / 1000,
        request: {
          method: exchange.method,
          url: redact(url.href),
          httpVersion: passed.httpVersion,
          headers: headers(passed.requestRawHeaders),
          queryString: [...url.searchParams].map(([name, value]) => ({
            name,
            value: isCredentialParameter(name) ? REDACTED : redact(value),
          })),
          cookies: [],
          headersSize: -1,
          bodySize: passed.requestBody === undefined ? 0 : Buffer.byteLength(passed.requestBody),
          ...(passed.requestBody === undefined
            ? {}
            : {
                postData: {
                  mimeType: exchange.requestHeaders["content-type"] ?? "",
                  text: redact(passed.requestBody),
                },
              }),
        },
        response: {
          status: exchange.status ?? 0,
          statusText: redact(passed.statusText),
          httpVersion: passed.httpVersion,
          headers: headers(passed.responseRawHeaders),
          cookies: [],
          content: {
            size: text === undefined ? -1 : Buffer.byteLength(text),
            mimeType: contentType,
            ...(text === undefined ? {} : { text }),
          },
          redirectURL: "",
          headersSize: -1,
          bodySize: -1,
          ...(exchange.invalid?.length
            ? { comment: `${INVALID_ANSWER}${redact(exchange.invalid.join(INVALID_SEPARATOR))}` }
            : {}),
        },
        cache: {},
        timings: { send: 0, wait: Math.round(exchange.durationMs), receive: 0 },
      };
      const chunk = `${count > 0 ? ",\n" : ""}${JSON.stringify(entry)}`;
      if (whole + Buffer.byteLength(chunk) + CLOSING_ROOM > maxBytes) {
        stop(`the file reached its bound of ${maxBytes} bytes (MAX_RECORDING_BYTES)`);
        return;
      }
      const before = whole;
      try {
        write(chunk);
        count++;
        state.entries = count;
      } catch (error) {
        whole = before;
        stop(`the disk refused a write (${(error as Error).message})`, error);
      }
    },
    get entries() {
      return count;
    },
    get state(): RecordingState {
      return { ...state };
    },
    close(): void {
      if (closed) return;
      closed = true;
      const comment = state.complete
        ? ""
        : `,"comment":${JSON.stringify(`recording stopped after ${count} entries: ${state.stopped}`)}`;
      try {
        // Cut back to the last whole entry (a failed write may have left part of one), then close.
        ftruncateSync(fd, whole);
        write(`${whole === 0 ? opening : ""}\n]${comment}}}\n`);
      } catch (error) {
        state.valid = false;
        state.error ??= (error as Error).message;
      }
      try {
        closeSync(fd);
      } catch {
        // Nothing more to save.
      }
    },
  };
}
