// Reports and recordings hold what a target answered and what a client sent: they are written
// readable by their owner only (0600), also over a file that was there with another mode. The
// check reads the file's own mode bits, whatever the umask of the machine running it.

import { chmodSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildReport } from "../src/judge/build-report.js";
import { writeReports } from "../src/report/files.js";
import { createHarRecorder } from "../src/traffic/har-recorder.js";

const FILES = ["report.json", "junit.xml", "report.md", "report.html"];
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe("file modes", () => {
  it("the four report files are 0600, new or written over a 0644 one", () => {
    const report = buildReport(
      { target: "http://127.0.0.1:1", startedAt: new Date(), options: {}, scenarios: [] },
      (text) => text,
    );
    const fresh = mkdtempSync(join(tmpdir(), "report-mode-"));
    writeReports(report, fresh, (text) => text);
    for (const f of FILES) expect([f, modeOf(join(fresh, f))]).toEqual([f, 0o600]);
    const again = mkdtempSync(join(tmpdir(), "report-mode-"));
    for (const f of FILES) {
      writeFileSync(join(again, f), "old");
      chmodSync(join(again, f), 0o644);
    }
    writeReports(report, again, (text) => text);
    for (const f of FILES) expect([f, modeOf(join(again, f))]).toEqual([f, 0o600]);
  });

  it("observe's recording is 0600, new or written over a 0644 one", () => {
    const dir = mkdtempSync(join(tmpdir(), "har-mode-"));
    const meta = { upstream: "http://127.0.0.1:1", version: "0" };
    const fresh = join(dir, "new.har");
    createHarRecorder(
      fresh,
      meta,
      () => "token 1",
      (t) => t,
    ).close();
    expect(modeOf(fresh)).toBe(0o600);
    const old = join(dir, "old.har");
    writeFileSync(old, "old");
    chmodSync(old, 0o644);
    createHarRecorder(
      old,
      meta,
      () => "token 1",
      (t) => t,
    ).close();
    expect(modeOf(old)).toBe(0o600);
  });
});
