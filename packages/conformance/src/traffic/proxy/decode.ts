// The text of an answer's body as the judge reads it: decoded from its content-coding, and never
// decoded past what the judge reads (a small gzip bomb stays small).

import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { MAX_JUDGED_BODY_BYTES } from "../../shared/exchange.js";

/** The body as text the judge reads: decoded from its content-coding, bounded; or why it cannot be. */
export function decoded(
  bytes: Buffer | undefined,
  encoding: string | undefined,
): { body: string | undefined; problem?: string } {
  if (bytes === undefined) return { body: undefined };
  const coding = (encoding ?? "").trim().toLowerCase();
  const options = { maxOutputLength: MAX_JUDGED_BODY_BYTES };
  try {
    if (coding === "gzip" || coding === "x-gzip")
      return { body: gunzipSync(bytes, options).toString("utf8") };
    if (coding === "deflate") return { body: inflateSync(bytes, options).toString("utf8") };
    if (coding === "br") return { body: brotliDecompressSync(bytes, options).toString("utf8") };
  } catch (error) {
    // Larger decoded than the judge reads: passed, not judged (counted). Anything else: the body is
    // not what its Content-Encoding says, a finding of its own, its bytes the evidence.
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || error instanceof RangeError)
      return { body: undefined };
    return {
      body: bytes.toString("utf8"),
      problem: `the body cannot be decoded as its Content-Encoding ${coding} says (${(error as Error).message})`,
    };
  }
  return { body: bytes.toString("utf8") };
}
