// An answer's body read within its byte bound: past it the answer is cut (its socket destroyed by
// the caller) and never taken for an answer, so a target that answers gigabytes costs a run the
// bound, not the process.

import type { IncomingMessage } from "node:http";
import { flatHeaders } from "../shared/exchange.js";
import { cutMessage } from "./errors.js";

/** An answer whose body passed the cap as it came (the socket is destroyed at once). */
export class TooLarge extends Error {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string | undefined>,
    maxBytes: number,
  ) {
    super(cutMessage(maxBytes));
  }
}

/** How a read ends: whole (the body's text), cut at the bound, or failed. */
export interface Reading {
  whole(text: string): void;
  cut(error: TooLarge): void;
  failed(error: Error): void;
}

/** Reads `res`'s body, at most `maxBytes` of it; `ends` is told once how the read ended. */
export function readAnswer(res: IncomingMessage, maxBytes: number, ends: Reading): void {
  const chunks: Buffer[] = [];
  let size = 0;
  res.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      chunks.length = 0;
      ends.cut(new TooLarge(res.statusCode ?? 0, flatHeaders(res.headers), maxBytes));
      return;
    }
    chunks.push(chunk);
  });
  res.on("error", ends.failed);
  res.on("end", () => ends.whole(Buffer.concat(chunks).toString("utf8")));
}
