// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the recording format of browsers'
// developer tools, Playwright and most HTTP tools: read into exchanges for `verify --har`, and
// written by `observe --record`. A HAR that holds a token is read, never copied: what the judge
// keeps is the token's label. What `observe --record` writes holds no token either: credentials are
// replaced by their label ("APIKey [token 1]"), and every body and header is redacted of every
// token seen.

import { closeSync, ftruncateSync, writeSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { entryProblem } from "../http/har-shape.js";
import { openPrivate } from "../report/files.js";
import { headersOfPairs, type ObservedExchange } from "../shared/exchange.js";
import { REDACTED } from "../shared/redact.js";
import { UsageError } from "../shared/usage-error.js";
import { isCredentialHeader, isCredentialParameter } from "../spec/credential-names.js";
import { MAX_JUDGED_BODY_BYTES, type PassedExchange } from "./proxy.js";

/**
 * What `observe --record` writes at most into one HAR file: past it, recording stops (the file is
 * closed whole and says so in `log.comment`). Well below what `verify --har` reads.
 */
export const MAX_RECORDING_BYTES = 256 * 2 ** 20;

interface HarHeader {
  name: string;
  value: string;
}

interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    headers: HarHeader[];
    queryString: { name: string; value: string }[];
    cookies: unknown[];
    headersSize: number;
    bodySize: number;
    postData?: { mimeType: string; text: string };
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    headers: HarHeader[];
    cookies: unknown[];
    content: { size: number; mimeType: string; text?: string; encoding?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
    comment?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

/**
 * Headers whose value is a scheme and a credential: the credential is written as its label
 * ("APIKey [token 1]"), so that verify of the recording tells the tokens apart. Every other
 * credential header (isCredentialHeader) is written as `[credential]`.
 */
const LABELLED = new Set(["authorization", "proxy-authorization"]);

export interface HarReading {
  exchanges: ObservedExchange[];
  /** Entries outside the base URL given (another host, another path prefix): not judged. */
  outside: number;
}

/**
 * How the recorder marks an answer that broke HTTP itself (a status line, a body its
 * Content-Encoding cannot decode) in the entry's `response.comment`, so that `verify` of the
 * recording finds what `observe` found: the HAR's text holds the body as it came, not the failure.
 */
const INVALID_ANSWER = "conformance observe: invalid answer: ";
const INVALID_SEPARATOR = "; ";

/**
 * The largest HAR `verify` reads: 500 MiB, below the longest string V8 holds (a HAR is parsed
 * whole). Larger ones are refused before they are read, and a file that never ends (a pipe,
 * /dev/zero) is stopped here.
 */
export const MAX_HAR_BYTES = 500 * 1024 * 1024;

const where = (file: string, index: number, what: string) => `${file}: log.entries[${index}]${what}`;

/**
 * Reads a HAR file into exchanges, their paths relative to `baseUrl` when one is given (entries
 * outside it are counted, not judged). Throws a UsageError naming what is wrong and where, and
 * never quoting what the file holds (a token may be anywhere in it).
 */
export async function readHar(
  file: string,
  baseUrl?: string,
  { maxBytes = MAX_HAR_BYTES }: { maxBytes?: number } = {},
): Promise<HarReading> {
  const text = await readBounded(file, maxBytes);
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text where parsing stopped: only its position is kept.
    const at = /at position (\d+)/.exec((error as Error).message)?.[1];
    throw new UsageError(
      `--har ${file}: not JSON (${at === undefined ? "it does not parse" : `it does not parse past character ${at}`}); a HAR file is JSON with log.entries.`,
    );
  }
  const entries = (har as { log?: { entries?: unknown } })?.log?.entries;
  if (!Array.isArray(entries))
    throw new UsageError(
      `--har ${file}: no log.entries array; is it a HAR file (HAR 1.2, "Save all as HAR")?`,
    );
  const base = baseUrl === undefined ? undefined : new URL(baseUrl);
  const prefix = base?.pathname.replace(/\/$/, "") ?? "";
  const exchanges: ObservedExchange[] = [];
  let outside = 0;
  entries.forEach((raw, index) => {
    const problem = entryProblem(raw);
    if (problem !== undefined) throw new UsageError(where(file, index, `${problem}.`));
    const { request, response, ...entry } = raw as HarEntry;
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new UsageError(
        where(
          file,
          index,
          ".request.url is not an absolute URL; allowed: one such as https://api.gcore.com/cloud/v1/projects.",
        ),
      );
    }
    if (
      base &&
      (url.origin !== base.origin || !(url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)))
    ) {
      outside++;
      return;
    }
    const content = response.content;
    let body: string | undefined = "";
    if (content?.text !== undefined) {
      const bytes =
        content.encoding === "base64" ? Buffer.from(content.text, "base64") : Buffer.from(content.text);
      body = bytes.length > MAX_JUDGED_BODY_BYTES ? undefined : bytes.toString("utf8");
    } else if ((content?.size ?? 0) > 0) body = undefined; // kept apart by the recorder (Playwright's "attach")
    const at = Date.parse(entry.startedDateTime ?? "");
    const comment = typeof response.comment === "string" ? response.comment : "";
    const invalid = comment.startsWith(INVALID_ANSWER)
      ? comment.slice(INVALID_ANSWER.length).split(INVALID_SEPARATOR)
      : [];
    exchanges.push({
      method: request.method,
      url: `${url.pathname.slice(prefix.length) || "/"}${url.search}`,
      requestHeaders: headerRecord(request.headers),
      ...(typeof request.postData?.text === "string" ? { requestBody: request.postData.text } : {}),
      // HAR writes 0 (browsers) or -1 for a request that got no answer.
      status: response.status > 0 ? response.status : null,
      responseHeaders: headerRecord(response.headers),
      body,
      at: Number.isNaN(at) ? 0 : at,
      durationMs: typeof entry.time === "number" && entry.time >= 0 ? entry.time : 0,
      ...(invalid.length > 0 ? { invalid } : {}),
    });
  });
  return { exchanges, outside };
}

/**
 * The file's text, at most `maxBytes` of it: a regular file larger than that is refused before it
 * is read; anything else (a pipe, a device) is read as a stream and stopped at the bound.
 */
async function readBounded(file: string, maxBytes: number): Promise<string> {
  const tooLarge = () =>
    new UsageError(
      `--har ${file}: larger than verify reads (at most ${maxBytes.toLocaleString("en-US")} bytes, ${Math.floor(maxBytes / 1024 / 1024)} MiB); judge a shorter recording, or split it.`,
    );
  const cannot = (error: unknown) =>
    new UsageError(`--har ${file}: cannot read it (${(error as Error).message}).`);
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch (error) {
    throw cannot(error);
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new UsageError(`--har ${file}: is a folder; give a HAR file.`);
    if (stat.isFile() && stat.size > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let bytes = 0;
    const stream = handle.createReadStream({ highWaterMark: 1 << 20, autoClose: false });
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > maxBytes) throw tooLarge();
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof UsageError) throw error;
      throw cannot(error);
    } finally {
      stream.destroy();
    }
    return Buffer.concat(chunks, bytes).toString("utf8");
  } finally {
    await handle.close();
  }
}

const headerRecord = (headers: HarHeader[] | undefined) =>
  headersOfPairs(
    (Array.isArray(headers) ? headers : [])
      .filter((h) => typeof h?.name === "string" && typeof h.value === "string")
      .map((h) => [h.name, h.value] as const),
  );

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
