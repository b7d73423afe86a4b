// `observe --record`: what the proxy passed, written as HAR 1.2 (the format: src/http/har.ts). What
// it writes holds no token: credentials are replaced by their label ("APIKey [token 1]"), and every
// body and header is redacted of every token seen.

import { openPrivate } from "../report/files.js";
import { UsageError } from "../shared/usage-error.js";
import { harEntry } from "./har/entry.js";
import { harFile } from "./har/file.js";
import type { PassedExchange } from "./proxy/record.js";

export type { RecordingState } from "./har/file.js";

/**
 * What `observe --record` writes at most into one HAR file: past it, recording stops (the file is
 * closed whole and says so in `log.comment`). Well below what `verify --har` reads.
 */
export const MAX_RECORDING_BYTES = 256 * 2 ** 20;

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
  const root = `${base.origin}${base.pathname.replace(/\/$/, "")}`;
  let fd: number;
  try {
    // Owner only (0600), as the reports: it holds what the client sent and the target answered.
    fd = openPrivate(file);
  } catch (error) {
    throw new UsageError(`--record ${file}: cannot write it (${(error as Error).message}).`);
  }
  const creator = { name: "platform-api-conformance observe", version: meta.version };
  const har = harFile(file, fd, creator, more.maxBytes ?? MAX_RECORDING_BYTES, more.onStop);
  return {
    add(passed: PassedExchange): void {
      // Nothing is labelled for an entry that is not written: labels number the tokens as written.
      if (har.writing) har.append(JSON.stringify(harEntry(passed, root, { label, redact })));
    },
    get entries() {
      return har.entries;
    },
    get state() {
      return har.state;
    },
    close(): void {
      har.close();
    },
  };
}
