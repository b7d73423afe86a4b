import { BODY_EXCERPT_CHARS, errorForStatus, InvalidResponseError } from "./errors.js";
import type { BufferedResponse } from "./transport/body.js";
import { parseRetryAfter } from "./transport/retry.js";
import { attemptsOf, pathOf } from "./transport/transport.js";

export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** A helper's result with the answer it came in: its status and headers (`page.response`, as Stainless SDKs have it). */
export type WithResponse<T> = T & { readonly response: Response };

/**
 * `value` with `response` attached, not enumerable: the value's JSON, keys and equality stay the
 * server's body. Left as it is when it is no object (the helper's checks refuse it).
 */
export function withResponse<T>(value: T, response: Response): WithResponse<T> {
  if (typeof value === "object" && value !== null)
    Object.defineProperty(value, "response", { value: response, configurable: true });
  return value as WithResponse<T>;
}

/** The path of the URL that was really called, when the fetch implementation reports it. */
const calledPath = (response: Response, fallbackPath: string): string =>
  response.url ? pathOf(response.url) : fallbackPath;

/** The data of a successful answer; a typed ApiError for any other (what the helpers throw). */
export function requireData<T>(result: FetchResult<T>, method: string, fallbackPath: string): T {
  const { response } = result;
  if (response.ok) return result.data as T;
  const path = calledPath(response, fallbackPath);
  throw errorForStatus(`${method} ${path} answered ${response.status}`, {
    status: response.status,
    method,
    path,
    body: result.error,
    attempts: attemptsOf(response),
    headers: response.headers,
    retryAfterMs: response.status === 429 ? parseRetryAfter(response.headers) : undefined,
  });
}

/**
 * Enough of a body to redact before cutting: a key's longest escaped form (12 characters per
 * character of the key, as %XX%XX%XX%XX) starting within the excerpt ends well inside it.
 */
const REDACTED_SPAN = 64 * 1024;
/** What would act on a terminal or reorder text where the excerpt is shown (C0 but tab and newline, DEL, C1, bidi controls). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these characters are what it finds
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The error for a success whose body the parser refused (`cause`): its method, path, status,
 * Content-Type and the start of the body, redacted by `redact` before it is cut.
 */
export function notJsonError(
  method: string,
  fallbackPath: string,
  response: BufferedResponse,
  cause: unknown,
  redact: (text: string) => string,
): InvalidResponseError {
  const path = calledPath(response, fallbackPath);
  const head = new TextDecoder().decode(response.bodyBytes.subarray(0, REDACTED_SPAN));
  let excerpt = redact(head).replace(UNPRINTABLE, "\uFFFD").slice(0, BODY_EXCERPT_CHARS);
  // Never half of a surrogate pair.
  if (/[\ud800-\udbff]$/.test(excerpt)) excerpt = excerpt.slice(0, -1);
  const contentType = response.headers.get("content-type") ?? undefined;
  return new InvalidResponseError(
    `${method} ${path}: its ${response.status} answer (${contentType ?? "no Content-Type"}) is not JSON: ${excerpt}`,
    {
      status: response.status,
      method,
      path,
      attempts: attemptsOf(response),
      cause,
      contentType,
      excerpt,
      headers: response.headers,
    },
  );
}
