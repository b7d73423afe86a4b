// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the recording format of browsers'
// developer tools, Playwright and most HTTP tools: its entries, and a HAR file read into exchanges
// (`verify --har`, `parity`). A HAR that holds a token is read, never copied: what the judge keeps
// is the token's label. Writing one is observe's recorder (src/traffic/har-recorder.ts).

import { type FileHandle, open } from "node:fs/promises";
import { headersOfPairs, MAX_JUDGED_BODY_BYTES, type ObservedExchange } from "../shared/exchange.js";
import { UsageError } from "../shared/usage-error.js";
import { entryProblem } from "./har-shape.js";

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
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
export const INVALID_ANSWER = "conformance observe: invalid answer: ";
export const INVALID_SEPARATOR = "; ";

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
