// One exchange with the platform, whoever made it: the suite's own HTTP layer in an active run,
// a client `conformance observe` saw pass, or a HAR file's entry. The request as sent and the answer
// as received, nothing judged yet: the judge (src/judge/judge.ts) reads every one the same way.

/**
 * What the judge reads of a body at most, whoever made the exchange: observe's proxy passes a longer
 * answer whole but does not judge it, and the suite's own HTTP layer stops reading there.
 */
export const MAX_JUDGED_BODY_BYTES = 8 * 1024 * 1024;

export interface ObservedExchange {
  method: string;
  /** Path and query as the client sent them, relative to the API's base URL. */
  url: string;
  /**
   * Request headers, names lower-cased. Read for the token's standing (401 vs 403) and never
   * reported: what the judge keeps of a token is a label ("token 1"), not the token.
   */
  requestHeaders: Record<string, string | undefined>;
  /** The request body as text; undefined when there was none or the producer did not keep it. */
  requestBody?: string;
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
  /** Active runs: the result or driver that made the request ("auth.wrong-token"), named in problems. */
  by?: string;
  /**
   * Active runs: which of the run's keys the request carried. Traffic never says: a token's role
   * (the client's, the reseller's) is not in the token, and a 2xx cannot tell one from the other.
   */
  tokenRole?: "client" | "reseller";
  /**
   * Active runs: a path parameter the suite gave a value no resource has, on purpose (a driver's
   * unknown id). Traffic never carries it: whether an id exists is not for the judge to guess.
   */
  unknownParameter?: string;
  /**
   * Active runs: why the request breaks the spec, sent so on purpose (fuzz's forbidden values). Any
   * 4xx is a refusal of it, documented or not: the seed documents 400 for bodies only, and which 4xx
   * a server refuses a malformed path or query with is its own choice.
   */
  offSpec?: string;
  /**
   * Active runs (fuzz): query parameters holding a value whose effect the spec leaves open (the AI
   * task list's limit, whose bounds are x-unspecified): the list rules judge no page asked so.
   */
  openParameters?: string[];
  /**
   * Active runs: the suite sent the request again after this answer (a 429, or a 5xx its retry rules
   * cover), so this answer is not the request's last word; rules of what a request gets skip it.
   */
  retried?: boolean;
  /** Active runs: the run's number of the exchange (Evidence.seq). */
  seq?: number;
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
