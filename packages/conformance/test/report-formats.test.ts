// The report formats are one list (src/report/formats.ts): the writer, the summary's "reports:"
// line and the --report help read it, so a new format is its renderer and one line there. A format
// made up here and registered in that list is written, summarised and listed in every command's
// help; the guides that name the files name the list's entries.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import type { Command } from "commander";
import { afterEach, describe, expect, it } from "vitest";
import { createProgram } from "../src/cli/cli-options.js";
import { createFuzzCommand } from "../src/cli/fuzz-options.js";
import { createObserveCommand, createVerifyCommand } from "../src/cli/traffic-options.js";
import { buildReport } from "../src/judge/build-report.js";
import { reportsLine, saveReports } from "../src/report/files.js";
import { REPORT_FORMATS, type ReportFormat, reportFiles } from "../src/report/formats.js";
import { verdictOf } from "../src/report/report.js";
import type { Report } from "../src/shared/results.js";
import { forTerminal } from "../src/shared/terminal.js";

const report = (): Report =>
  buildReport(
    { target: "http://127.0.0.1:1", startedAt: new Date(0), options: {}, scenarios: [] },
    (text) => text,
  );

/** Every command whose --report is the report folder (parity writes its own two files). */
const COMMANDS: [string, () => Command][] = [
  ["a run", createProgram],
  ["fuzz", createFuzzCommand],
  ["observe", createObserveCommand],
  ["verify", createVerifyCommand],
];

const reportHelp = (command: Command) => command.options.find((o) => o.long === "--report")?.description;
/** The help as a reader sees it, wrapped at whatever width: words and single spaces. */
const helpWords = (command: Command) => command.helpInformation().replace(/\s+/g, " ");

describe("the formats a user has today", () => {
  // Written out here, not read from the list: the names, their order and the words are what users
  // and their CI read, and stay as they were.
  it("are named in the summary, in every --report help and in the helpers' order", () => {
    expect(reportFiles()).toEqual(["report.json", "junit.xml", "report.md", "report.html"]);
    expect(reportsLine("conformance-report")).toBe(
      "reports: conformance-report/report.json, junit.xml, report.md, report.html",
    );
    for (const [, create] of COMMANDS)
      expect(reportHelp(create())).toBe("directory for report.json, junit.xml, report.md and report.html");
  });
});

describe("a format made up here, registered in the list", () => {
  const madeUp: ReportFormat = {
    file: "report.txt",
    purpose: "for a test",
    render: (r, redact) => `${redact(`${verdictOf(r)} at http://127.0.0.1:1`)}\n`,
  };
  let dir: string | undefined;
  afterEach(async () => {
    // The list is shared by every test of this worker (isolate: false): take the format off again.
    const at = REPORT_FORMATS.indexOf(madeUp);
    if (at >= 0) REPORT_FORMATS.splice(at, 1);
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("is written (0600, with the run's redactor), and the summary names it", async () => {
    REPORT_FORMATS.push(madeUp);
    dir = await mkdtemp(join(tmpdir(), "report-formats-"));
    const lines: string[] = [];
    const saved = saveReports(
      report(),
      dir,
      (text) => text.replace("127.0.0.1", "[host]"),
      (line) => lines.push(stripVTControlCharacters(forTerminal(line))),
    );
    expect(saved).toBe(true);
    expect(await readFile(join(dir, "report.txt"), "utf8")).toBe("CONFORMANT at http://[host]:1\n");
    expect(statSync(join(dir, "report.txt")).mode & 0o777).toBe(0o600);
    for (const file of ["report.json", "junit.xml", "report.md", "report.html"])
      expect(statSync(join(dir, file)).isFile()).toBe(true);
    expect(lines.at(-1)).toBe(`reports: ${dir}/report.json, junit.xml, report.md, report.html, report.txt`);
  });

  it.each(COMMANDS)("is listed in %s's --report help", (_name, create) => {
    REPORT_FORMATS.push(madeUp);
    const words = "directory for report.json, junit.xml, report.md, report.html and report.txt";
    expect(reportHelp(create())).toBe(words);
    expect(helpWords(create())).toContain(words);
  });
});

// The guides and READMEs that name the report files: a sample summary's "reports:" line is the one
// the run prints; a paragraph, list or code block that names most of the files is a list of them
// and names every one; a bullet "- `file` for …:" says who reads it as the list does; and no count
// of the reports is written down (a guide said "three reports" after report.html was added).
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const markdownIn = (dir: string, ext: RegExp): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => ext.test(f))
    .map((f) => join(dir, f));
const DOCS = [
  "README.md",
  "packages/conformance/README.md",
  ...markdownIn("packages/docs/guides", /\.md$/),
  ...markdownIn("packages/conformance/examples", /\.ya?ml$/),
];

/** The report files a text names, each once, in the list's order. */
const named = (text: string) =>
  reportFiles().filter((file) => new RegExp(`(?<![\\w.-])${file.replace(".", "\\.")}(?![\\w-])`).test(text));

describe.each(DOCS)("%s", (doc) => {
  const text = readFileSync(join(ROOT, doc), "utf8");

  it("shows the summary's reports line as a run prints it", () => {
    for (const line of text.split("\n").filter((l) => l.startsWith("reports: "))) {
      expect(line).toBe(reportsLine(line.slice("reports: ".length, line.lastIndexOf("/"))));
    }
  });

  it("names every report file wherever it lists them", () => {
    const short = text
      .split(/\n\s*\n/)
      .filter((block) => named(block).length > reportFiles().length / 2)
      .filter((block) => named(block).length < reportFiles().length);
    expect(short).toEqual([]);
  });

  it("says who reads each file as the list does", () => {
    const said = [...text.matchAll(/^- `([^`]+)` (for [^:]+):/gm)].filter(([, file]) =>
      reportFiles().includes(file ?? ""),
    );
    expect(said.map(([, file, purpose]) => [file, purpose])).toEqual(
      said.map(([, file]) => [file, REPORT_FORMATS.find((f) => f.file === file)?.purpose]),
    );
  });

  it("counts no reports (a count goes stale when a format is added)", () => {
    expect(text.match(/\b(two|three|four|five|six|seven|\d+) report(s| files)\b/gi) ?? []).toEqual([]);
  });
});
