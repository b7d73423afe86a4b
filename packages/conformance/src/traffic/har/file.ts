// How `observe --record` writes its HAR file: entry by entry as they pass (a long session keeps none
// of them in memory), never past its bound, and always closed whole: when the bound is reached or
// the disk refuses a write (ENOSPC, EFBIG, EIO), writing stops, the file is cut back to its last
// whole entry and closed as a HAR that says why in `log.comment`. The session never stops for it.

import { closeSync, ftruncateSync, writeSync } from "node:fs";

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

export interface HarFile {
  /** False once recording stopped or the file was closed: nothing more is written. */
  readonly writing: boolean;
  /** Writes one entry (its JSON), unless it would take the file past its bound. */
  append(entry: string): void;
  readonly entries: number;
  readonly state: RecordingState;
  /** Cuts the file back to its last whole entry and closes it as a HAR. */
  close(): void;
}

// Room kept for the closing text and its comment, so a file at its bound still closes whole.
const CLOSING_ROOM = 1024;

/**
 * The HAR file on `fd` (opened for `file`): its opening is written at once. `onStop` is told once,
 * when recording stops early.
 */
export function harFile(
  file: string,
  fd: number,
  creator: { name: string; version: string },
  maxBytes: number,
  onStop?: (message: string) => void,
): HarFile {
  let count = 0;
  let closed = false;
  /** Bytes of the file that hold whole entries (where it is cut back to when a write fails). */
  let whole = 0;
  const state: RecordingState = { file, entries: 0, complete: true, valid: true };
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
      onStop?.(`recording to ${file} stopped after ${count} entries: ${why}`);
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
  return {
    get writing() {
      return !closed && state.complete;
    },
    append(entry) {
      const chunk = `${count > 0 ? ",\n" : ""}${entry}`;
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
    close() {
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
