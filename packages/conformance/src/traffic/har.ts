// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the recording format of browsers'
// developer tools, Playwright and most HTTP tools: read into exchanges for `verify --har`, and
// written by `observe --record`. A HAR that holds a token is read, never copied: what the judge
// keeps is the token's label. What `observe --record` writes holds no token either: credentials are
// replaced by their label ("APIKey [token 1]"), and every body and header is redacted of every
// token seen.

import { closeSync, openSync, writeSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { UsageError } from "../options.js";
import { headersOfPairs, type ObservedExchange } from "./exchange.js";
import { entryProblem } from "./har-shape.js";
import { MAX_JUDGED_BODY_BYTES, type PassedExchange } from "./proxy.js";

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
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
}

/** Headers whose whole value is a credential: replaced by a label, never written. */
const CREDENTIALS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]);

export interface HarReading {
  exchanges: ObservedExchange[];
  /** Entries outside the base URL given (another host, another path prefix): not judged. */
  outside: number;
}

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
    exchanges.push({
      method: request.method,
      url: `${url.pathname.slice(prefix.length) || "/"}${url.search}`,
      requestHeaders: headerRecord(request.headers),
      // HAR writes 0 (browsers) or -1 for a request that got no answer.
      status: response.status > 0 ? response.status : null,
      responseHeaders: headerRecord(response.headers),
      body,
      at: Number.isNaN(at) ? 0 : at,
      durationMs: typeof entry.time === "number" && entry.time >= 0 ? entry.time : 0,
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

/**
 * Writes what the proxy passed as HAR 1.2, entry by entry as they pass (a long session keeps none
 * of them in memory). `label` names a credential ("token 1"), `redact` cleans every text of every
 * token seen; both come from the judge, so the recording and the report agree.
 */
export function createHarRecorder(
  file: string,
  meta: { upstream: string; version: string },
  label: (credential: string) => string,
  redact: (text: string) => string,
) {
  const base = new URL(meta.upstream);
  const prefix = base.pathname.replace(/\/$/, "");
  let fd: number;
  try {
    fd = openSync(file, "w");
  } catch (error) {
    throw new UsageError(`--record ${file}: cannot write it (${(error as Error).message}).`);
  }
  const creator = { name: "platform-api-conformance observe", version: meta.version };
  writeSync(fd, `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[\n`);
  let count = 0;
  let closed = false;
  const headers = (raw: string[]): HarHeader[] => {
    const out: HarHeader[] = [];
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i] ?? "";
      const value = raw[i + 1] ?? "";
      if (!CREDENTIALS.has(name.toLowerCase())) out.push({ name, value: redact(value) });
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
      if (closed) return;
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
          queryString: [...url.searchParams].map(([name, value]) => ({ name, value: redact(value) })),
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
          statusText: passed.statusText,
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
        },
        cache: {},
        timings: { send: 0, wait: Math.round(exchange.durationMs), receive: 0 },
      };
      writeSync(fd, `${count > 0 ? ",\n" : ""}${JSON.stringify(entry)}`);
      count++;
    },
    get entries() {
      return count;
    },
    close(): void {
      if (closed) return;
      closed = true;
      writeSync(fd, "\n]}}\n");
      closeSync(fd);
    },
  };
}
