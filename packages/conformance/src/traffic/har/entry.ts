// What `observe --record` writes of one exchange: a HAR 1.2 entry holding no token. Credentials are
// written as their label (the scheme's word, then "[token 1]") or `[credential]`, every other text redacted of every
// token seen; and an answer that broke HTTP itself says so in `response.comment`.

import { isCredentialHeader, isCredentialParameter } from "../../facts/credential-names.js";
import { type HarEntry, type HarHeader, INVALID_ANSWER, INVALID_SEPARATOR } from "../../http/har.js";
import { REDACTED } from "../../shared/redact.js";
import type { PassedExchange } from "../proxy/record.js";

/**
 * Headers whose value is a scheme and a credential: the credential is written as its label
 * (the scheme's word, then "[token 1]"), so that verify of the recording tells the tokens apart. Every other
 * credential header (isCredentialHeader) is written as `[credential]`.
 */
const LABELLED = new Set(["authorization", "proxy-authorization"]);

/** What is said of a credential (its label: "token 1"), and what cleans a text of every token seen. */
export interface Hiding {
  label: (credential: string) => string;
  redact: (text: string) => string;
}

/** A raw header list as HAR headers, no credential in them. */
export function harHeaders(raw: string[], { label, redact }: Hiding): HarHeader[] {
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
}

/** The entry of an exchange that passed; `root` is the upstream's base URL without its last slash. */
export function harEntry(passed: PassedExchange, root: string, hiding: Hiding): HarEntry {
  const { redact } = hiding;
  const { exchange } = passed;
  const url = new URL(`${root}${exchange.url}`);
  const text = exchange.body === undefined ? undefined : redact(exchange.body);
  return {
    startedDateTime: new Date(exchange.at).toISOString(),
    time: Math.round(exchange.durationMs * 1000) / 1000,
    request: {
      method: exchange.method,
      url: redact(url.href),
      httpVersion: passed.httpVersion,
      headers: harHeaders(passed.requestRawHeaders, hiding),
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
      headers: harHeaders(passed.responseRawHeaders, hiding),
      cookies: [],
      content: {
        size: text === undefined ? -1 : Buffer.byteLength(text),
        mimeType: exchange.responseHeaders["content-type"] ?? "",
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
}
