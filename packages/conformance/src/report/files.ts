// Where a run's report goes: the report files (src/report/formats.ts), and the one-screen summary.
// Shared by the active run (src/active/run.ts), fuzz (src/fuzz/run.ts) and the traffic judge's commands
// (src/traffic/commands.ts).

import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { resolve } from "node:path";
import type { Report } from "../shared/results.js";
import { colors as pc } from "../shared/terminal.js";
import { UsageError } from "../shared/usage-error.js";
import { REPORT_FORMATS, reportFiles } from "./formats.js";
import { causeLine, causes, trafficLines, verdictOf } from "./report.js";

/** The report folder a --report value names, from the folder the command runs in. */
export const reportDirOf = (report: string, cwd: string = process.cwd()): string => resolve(cwd, report);

/**
 * Opens a file to write it whole, readable by its owner only (0600): a report or a recording holds
 * what a target answered and what a client sent. A file that was there keeps its inode and would
 * keep its mode, so a regular one is set to 0600 before anything is written into it.
 */
export function openPrivate(file: string): number {
  const fd = openSync(file, "w", PRIVATE);
  try {
    if (fstatSync(fd).isFile()) fchmodSync(fd, PRIVATE);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

const PRIVATE = 0o600;

function writePrivate(file: string, text: string): void {
  const fd = openPrivate(file);
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Writes every report format into `dir` (each 0600), in the list's order; returns it. */
export function writeReports(report: Report, dir: string, redact: (text: string) => string): string {
  mkdirSync(dir, { recursive: true });
  for (const format of REPORT_FORMATS) writePrivate(resolve(dir, format.file), format.render(report, redact));
  return dir;
}

/** The summary's last line: where the reports are, the folder once and then each file's name. */
export const reportsLine = (dir: string): string => `reports: ${dir}/${reportFiles().join(", ")}`;

/** An fs error in words: its code and message, never a stack. */
const why = (error: unknown) => (error as Error).message;

/**
 * Makes the report folder and proves it writable (a probe file, written and removed), before a
 * run, observe or verify sends or reads anything: a long run that cannot save its reports is
 * refused at once (exit 2), not at its end.
 */
export function checkReportDir(dir: string): void {
  const refuse = (what: string) =>
    new UsageError(`--report ${dir}: ${what}; give a folder the reports can be written to.`);
  let exists = false;
  try {
    exists = statSync(dir).isDirectory();
    if (!exists) throw refuse("it exists and is not a folder");
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw refuse(`cannot use it (${why(error)})`);
  }
  if (!exists)
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      throw refuse(`cannot make the folder (${why(error)})`);
    }
  const probe = resolve(dir, `.write-check-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    writeFileSync(probe, "the reports go here\n");
  } catch (error) {
    throw refuse(`cannot write into it (${why(error)})`);
  } finally {
    rmSync(probe, { force: true });
  }
}

/**
 * Writes the report files and prints the summary. A write that fails (a disk that filled during the
 * run) is one line after the verdict, never a stack: false then, and the caller exits 2.
 */
export function saveReports(
  report: Report,
  dir: string,
  redact: (text: string) => string,
  write: (line: string) => void,
): boolean {
  let failure: string | undefined;
  try {
    writeReports(report, dir, redact);
  } catch (error) {
    failure = `cannot write the reports into ${dir} (${why(error)}); the verdict above is all that is left of this run.`;
  }
  printSummary(report, failure ? undefined : dir, write);
  if (failure) write(pc.red(`platform-api-conformance: ${failure}`));
  return failure === undefined;
}

/**
 * 1 when a result failed (a `must`, or a `should` under --strict), or was flaky under
 * --fail-on-flaky; else 0.
 */
export const verdictCode = (report: Report): 0 | 1 => (verdictOf(report) === "NOT CONFORMANT" ? 1 : 0);

/** `reportDir` undefined: the reports could not be written (the caller says why). */
function printSummary(report: Report, reportDir: string | undefined, write: (line: string) => void) {
  const { summary } = report;
  write("");
  for (const s of report.scenarios.filter((x) => x.status === "failed"))
    write(`${pc.red("FAIL")} ${s.id} (${s.severity}): ${s.reason ?? ""}`);
  for (const s of report.scenarios.filter((x) => x.status === "warned"))
    write(`${pc.yellow("WARN")} ${s.id} (${s.severity}): ${s.reason ?? ""}`);
  for (const s of report.scenarios.filter((x) => x.status === "flaky"))
    write(`${pc.yellow("FLAKY")} ${s.id} (${s.severity}): ${s.reason ?? ""}`);
  for (const g of causes(report)) write(pc.bold(`${causeLine(g)} (${g.ids.join(", ")})`));
  const skipReasons = new Map<string, number>();
  for (const s of report.scenarios.filter((x) => x.status === "skipped"))
    skipReasons.set(s.reason ?? "", (skipReasons.get(s.reason ?? "") ?? 0) + 1);
  for (const [reason, count] of skipReasons) write(pc.dim(`skipped ${count}: ${reason}`));
  if (report.createdResources.length > 0)
    write(
      `created ${report.createdResources.length} resource(s): ${report.createdResources.map((r) => `${r.type} ${r.id}`).join(", ")} (listed in report.md)`,
    );
  for (const line of trafficLines(report)) write(pc.dim(line));
  const word = verdictOf(report);
  const verdict = pc.bold(
    word === "CONFORMANT" ? pc.green(word) : word === "NOT CONFORMANT" ? pc.red(word) : pc.yellow(word),
  );
  write(
    `${verdict}  ${summary.passed} passed, ${summary.failed} failed, ${summary.warned} warned, ${summary.skipped} skipped, ${summary.flaky ?? 0} flaky in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  if ((summary.flaky ?? 0) > 0)
    write(
      pc.yellow(
        report.options.failOnFlaky
          ? `${summary.flaky} flaky: a 5xx or lost answer that did not repeat when sent again; --fail-on-flaky counts them as failures.`
          : `${summary.flaky} flaky: a 5xx or lost answer that did not repeat when sent again; not failures (exit 0 on them alone; --fail-on-flaky to fail).`,
      ),
    );
  if (reportDir !== undefined) write(pc.dim(reportsLine(reportDir)));
}
