// Reading a file a user names (a report to replay, a baseline) within a bound: only a regular file
// is read, and one larger than the bound is refused before a byte of it is. A device (/dev/zero)
// never ends and a pipe (mkfifo) may never start: opened without blocking and refused, each with
// the flag that named it and what is allowed.

import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { UsageError } from "./usage-error.js";

/** The file's text; UsageError when it is not a regular file, is larger than `maxBytes`, or cannot be read. */
export function readBoundedFile(file: string, flag: string, maxBytes: number, what: string): string {
  let fd: number;
  try {
    // O_NONBLOCK: opening a pipe nobody writes to would otherwise wait forever.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new UsageError(
      `${flag} ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give ${what}.`,
    );
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new UsageError(
        `${flag} ${file}: is ${stat.isDirectory() ? "a folder" : stat.isFIFO() ? "a pipe" : "a device or socket"}, not a regular file; give ${what}.`,
      );
    const tooLarge = () =>
      new UsageError(
        `${flag} ${file}: larger than it reads (at most ${maxBytes.toLocaleString("en-US")} bytes); give ${what}.`,
      );
    if (stat.size > maxBytes) throw tooLarge();
    // One byte more than its size: a file that grows while it is read is told, never cut.
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, stat.size + 1));
    let read = 0;
    for (let n = 1; n > 0 && read < buffer.length; read += n)
      n = readSync(fd, buffer, read, buffer.length - read, null);
    if (read > maxBytes) throw tooLarge();
    if (read > stat.size) throw new UsageError(`${flag} ${file}: grew while it was read; give ${what}.`);
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    closeSync(fd);
  }
}
