// --report is checked before anything is sent: a path where no report can be written (a file, a
// device, a folder under a file) is exit 2 at once, saying why, for a run, observe and verify. A
// write that fails at the end (a full disk; here, a folder where report.html goes) is one line,
// exit 2, never a stack; the verdict is still printed.

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { runConformance } from "../src/active/run.js";
import { DEFAULTS } from "../src/cli/options.js";
import { specModel } from "../src/facts/spec.js";
import { runObserve, runVerify } from "../src/traffic/commands.js";
import { countingServer } from "./counting-server.js";

const ACCOUNT = operationById(specModel(), "getCurrentClient").path;
const KEY = "4122$report-dir-test-key-7d1c9e";
const dir = mkdtempSync(join(tmpdir(), "report-dir-"));
const aFile = join(dir, "a-file");
writeFileSync(aFile, "not a folder");

/** Counts every request; a check that comes first sends none. */
const server = countingServer();

const run = (report: string) => ({
  ...DEFAULTS,
  only: [],
  target: server.url,
  report,
});

describe.each([
  ["a file", aFile, /--report .*a-file: .*not a folder/],
  ["a folder under a file", join(aFile, "reports"), /--report .*a-file\/reports: /],
  ["a device", "/dev/full", /--report \/dev\/full: .*not a folder/],
])("--report naming %s", (_name, report, message) => {
  it("a run: exit 2 before anything is sent", async () => {
    const lines: string[] = [];
    const before = server.requests;
    const result = await runConformance(run(report), {
      write: (line) => lines.push(line),
      env: { GCORE_API_KEY: KEY },
    });
    expect(result.exitCode).toBe(2);
    expect(lines.join("\n")).toMatch(message);
    expect(server.requests).toBe(before);
  });

  it("observe: exit 2 before it listens", async () => {
    const lines: string[] = [];
    let listened = false;
    const result = await runObserve(
      { upstream: server.url, listen: "127.0.0.1:0", allowRemoteListen: false, report, strict: false },
      {
        write: (line) => lines.push(line),
        env: {},
        listening: () => (listened = true),
        stop: Promise.resolve(),
      },
    );
    expect(result.exitCode).toBe(2);
    expect(listened).toBe(false);
    expect(lines.join("\n")).toMatch(message);
  });

  it("verify: exit 2", async () => {
    const lines: string[] = [];
    const har = join(dir, "one.har");
    writeFileSync(har, JSON.stringify({ log: { entries: [] } }));
    const result = await runVerify(
      { har, report, strict: false },
      { write: (line) => lines.push(line), env: {} },
    );
    expect(result.exitCode).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});

describe("a write that fails at the end", () => {
  it("verify: one line saying what could not be written, exit 2, the verdict still printed", async () => {
    const report = join(dir, "end");
    mkdirSync(join(report, "report.html"), { recursive: true });
    const har = join(dir, "answered.har");
    const entry = {
      startedDateTime: "2026-11-24T10:00:00.000Z",
      time: 3,
      request: { method: "GET", url: `https://api.example.com${ACCOUNT}`, headers: [] },
      response: { status: 500, headers: [], content: { text: "{}" } },
    };
    writeFileSync(har, JSON.stringify({ log: { entries: [entry] } }));
    const lines: string[] = [];
    const result = await runVerify(
      { har, report, strict: false },
      { write: (line) => lines.push(line), env: {} },
    );
    expect(result.exitCode).toBe(2);
    const text = lines.join("\n");
    expect(text).toMatch(/NOT CONFORMANT/);
    expect(text).toMatch(/cannot write the reports into .*end .*EISDIR/);
    expect(text).not.toMatch(/\n\s+at /);
    expect(text).not.toMatch(/reports: .*report\.json/);
  });

  it("a run: the same", async () => {
    const report = join(dir, "run-end");
    mkdirSync(join(report, "report.json"), { recursive: true });
    const lines: string[] = [];
    const result = await runConformance(
      { ...DEFAULTS, target: "simulator", only: ["account.verifies-token"], report },
      { write: (line) => lines.push(line), env: {} },
    );
    const text = lines.join("\n");
    expect(result.exitCode, text).toBe(2);
    expect(text).toMatch(/CONFORMANT/);
    expect(text).toMatch(/cannot write the reports into .*run-end .*EISDIR/);
  }, 240_000);
});
