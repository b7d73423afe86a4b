// How `observe --record` writes its file, in-process on a file of the test's own: entry by entry,
// never past its bound, and closed as a whole HAR that says why when recording stopped early.

import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { harFile } from "../src/traffic/har/file.js";

const dir = mkdtempSync(join(tmpdir(), "har-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const creator = { name: "test", version: "0" };
let n = 0;
const opened = () => {
  const file = join(dir, `${++n}.har`);
  return { file, fd: openSync(file, "w") };
};
const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("harFile", { timeout: 30_000 }, () => {
  it("writes entries as they come, and closes as a whole HAR", () => {
    const { file, fd } = opened();
    const har = harFile(file, fd, creator, 1 << 20);
    har.append('{"a":1}');
    har.append('{"b":2}');
    expect(har.entries).toBe(2);
    expect(readFileSync(file, "utf8")).toContain('{"a":1},\n{"b":2}');
    har.close();
    har.close();
    expect(read(file)).toEqual({ log: { version: "1.2", creator, entries: [{ a: 1 }, { b: 2 }] } });
    expect(har.state).toEqual({ file, entries: 2, complete: true, valid: true });
    expect(har.writing).toBe(false);
  });

  it("stops at its bound, says so once, and closes whole with the reason in log.comment", () => {
    const { file, fd } = opened();
    const told: string[] = [];
    const har = harFile(file, fd, creator, 1024 + 200, (message) => told.push(message));
    har.append(JSON.stringify({ small: true }));
    har.append(JSON.stringify({ large: "x".repeat(200) }));
    har.append(JSON.stringify({ large: "y".repeat(200) }));
    const why = "the file reached its bound of 1224 bytes (MAX_RECORDING_BYTES)";
    expect(told).toEqual([`recording to ${file} stopped after 1 entries: ${why}`]);
    expect(har.writing).toBe(false);
    har.close();
    expect(read(file).log).toMatchObject({
      entries: [{ small: true }],
      comment: `recording stopped after 1 entries: ${why}`,
    });
    expect(har.state).toEqual({ file, entries: 1, complete: false, stopped: why, valid: true });
  });

  it("a disk that refuses a write stops recording; a file that cannot even close is said invalid", () => {
    const { file, fd } = opened();
    const told: string[] = [];
    const har = harFile(file, fd, creator, 1 << 20, (message) => told.push(message));
    har.append("{}");
    closeSync(fd); // every write from here on fails (EBADF), as a full disk's would
    har.append("{}");
    expect(told).toEqual([
      expect.stringMatching(/stopped after 1 entries: the disk refused a write \(EBADF/),
    ]);
    har.close();
    expect(har.state).toMatchObject({ entries: 1, complete: false, valid: false });
    expect(har.state.error).toMatch(/EBADF/);
  });

  it("a teller that throws costs nothing", () => {
    const { file, fd } = opened();
    const har = harFile(file, fd, creator, 1100, () => {
      throw new Error("no");
    });
    har.append(JSON.stringify({ large: "x".repeat(200) }));
    har.close();
    expect(read(file).log.entries).toEqual([]);
  });
});
