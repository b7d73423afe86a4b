// Where a run's report goes: the four files, and the one-screen summary. Shared by the active run
// (src/run.ts) and the traffic judge's commands (src/traffic/commands.ts).

import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Report, toJunit, toMarkdown, trafficLines, verdictOf } from "./report.js";
import { toHtml } from "./report-html.js";
import { colors as pc } from "./terminal.js";

/** Writes report.json, junit.xml, report.md and report.html into `dir`; returns it. */
export function writeReports(report: Report, dir: string, redact: (text: string) => string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(resolve(dir, "junit.xml"), toJunit(report));
  writeFileSync(resolve(dir, "report.md"), toMarkdown(report));
  writeFileSync(resolve(dir, "report.html"), toHtml(report, { redact }));
  return dir;
}

/** 1 when a result failed (a `must`, or a `should` under --strict), else 0. */
export const verdictCode = (report: Report): 0 | 1 =>
  report.scenarios.some((s) => s.status === "failed") ? 1 : 0;

export function printSummary(report: Report, reportDir: string, write: (line: string) => void) {
  const { summary } = report;
  write("");
  for (const s of report.scenarios.filter((x) => x.status === "failed"))
    write(`${pc.red("FAIL")} ${s.id} (${s.severity}): ${s.reason ?? ""}`);
  for (const s of report.scenarios.filter((x) => x.status === "warned"))
    write(`${pc.yellow("WARN")} ${s.id} (should): ${s.reason ?? ""}`);
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
    `${verdict}  ${summary.passed} passed, ${summary.failed} failed, ${summary.warned} warned, ${summary.skipped} skipped in ${(report.durationMs / 1000).toFixed(1)} s`,
  );
  write(pc.dim(`reports: ${reportDir}/report.json, junit.xml, report.md, report.html`));
}
