// One exchange a client made with the platform, as `conformance observe` saw it pass or a HAR file
// recorded it: the request as sent and the answer as received, nothing judged yet.

export interface ObservedExchange {
  method: string;
  /** Path and query as the client sent them, relative to the API's base URL. */
  url: string;
  /**
   * Request headers, names lower-cased. Read for the token's standing (401 vs 403) and never
   * reported: what the judge keeps of a token is a label ("token 1"), not the token.
   */
  requestHeaders: Record<string, string | undefined>;
  /** The answer's status; null when there was none (the upstream unreachable, the connection cut). */
  status: number | null;
  /** Answer headers, names lower-cased. */
  responseHeaders: Record<string, string | undefined>;
  /** The answer's body as text; undefined when it was larger than the judge reads (counted as dropped). */
  body: string | undefined;
  /** When the request started (ms since the epoch), and how long the whole answer took. */
  at: number;
  durationMs: number;
  /** Why there was no answer. */
  error?: string;
  /**
   * What in the answer breaks HTTP itself, as the proxy met it: a status that is none, a reason
   * phrase with a control character, a body its Content-Encoding cannot decode. Judged as failures
   * of the answer (`schema`), with its evidence.
   */
  invalid?: string[];
}

/**
 * Header pairs as written (a raw header list, a HAR's headers) as the judge reads them: names
 * lower-cased, a repeated header's values joined the way HTTP reads them.
 */
export function headersOfPairs(
  pairs: Iterable<readonly [string, string]>,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    out[lower] = out[lower] === undefined ? value : `${out[lower]}, ${value}`;
  }
  return out;
}

/** Header values as Node gives them (a list for repeated headers), joined the way HTTP reads them. */
export function flatHeaders(
  headers: Record<string, string | string[] | number | undefined>,
): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name.toLowerCase()] = Array.isArray(value)
      ? value.join(", ")
      : value === undefined
        ? undefined
        : String(value);
  return flat;
}
