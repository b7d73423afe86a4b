// The report formats: one entry per file a run, fuzz, observe and verify write into the report
// folder, in the order the summary names them. The writer (src/report/files.ts), the summary's
// "reports:" line, the --report help and the tests read this list, so a new format is its renderer
// and one line here.

import type { Report } from "../shared/results.js";
import { toHtml } from "./html.js";
import { toJunit, toMarkdown } from "./report.js";

export interface ReportFormat {
  /** Its name in the report folder. */
  file: string;
  /** Who reads it, as the guides' lists of the files say it ("for tools"). */
  purpose: string;
  /** The file's whole text; `redact` is the run's key redactor, for what a renderer shows of a target's text. */
  render: (report: Report, redact: (text: string) => string) => string;
}

/** Mutable only so a test can register a made-up format in-process and take it off again. */
export const REPORT_FORMATS: ReportFormat[] = [
  { file: "report.json", purpose: "for tools", render: (report) => `${JSON.stringify(report, null, 2)}\n` },
  { file: "junit.xml", purpose: "for CI", render: toJunit },
  { file: "report.md", purpose: "for people, as Markdown", render: toMarkdown },
  {
    file: "report.html",
    purpose: "for people, in a browser",
    render: (report, redact) => toHtml(report, { redact }),
  },
];

/** The files' names, in the list's order. */
export const reportFiles = (): string[] => REPORT_FORMATS.map((format) => format.file);

/** The files' names as a sentence says them: "a, b, c and d". */
export function reportFilesInWords(): string {
  const files = reportFiles();
  return files.length < 2 ? files.join("") : `${files.slice(0, -1).join(", ")} and ${files.at(-1)}`;
}
