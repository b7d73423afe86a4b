// A parity report as terminal lines and as Markdown (parity.md). What a recording and a target
// hold reaches both (paths, enum values): Markdown escapes it (src/shared/markdown.ts), and the terminal
// lines go through the command's printer (forTerminal, redaction).

import { mdCode, mdText } from "../shared/markdown.js";
import type { ParityReport } from "./report.js";

const shown = (parity: number | null) => (parity === null ? "n/a" : `${parity}%`);

/** What was not replayed, in a phrase per reason ("3 writes (--allow-writes sends them)"). */
export function skippedPhrases(report: ParityReport): string[] {
  const s = report.skipped;
  return [
    s["a write"] ? `${s["a write"]} writes (--allow-writes sends them)` : "",
    s["not in the spec"] ? `${s["not in the spec"]} not in the spec` : "",
    s["no recorded answer"] ? `${s["no recorded answer"]} without a recorded answer` : "",
    s["over the cap"] ? `${s["over the cap"]} over --max-entries` : "",
    report.outside ? `${report.outside} outside --base-url` : "",
  ].filter(Boolean);
}

export function toTextLines(report: ParityReport, maxDifferences = 10): string[] {
  const lines: string[] = [];
  for (const op of report.operations) {
    lines.push(`${op.operationId}: ${op.identical}/${op.compared} identical in shape (${shown(op.parity)})`);
    for (const d of op.differences.slice(0, maxDifferences))
      lines.push(`    ${d.path}: ${d.what} (${d.count}/${op.compared})`);
    if (op.differences.length > maxDifferences)
      lines.push(`    … ${op.differences.length - maxDifferences} more in parity.md`);
  }
  const skipped = skippedPhrases(report);
  lines.push(
    `Parity ${shown(report.parity)}: ${report.identical} of ${report.compared} exchanges identical in shape` +
      (skipped.length ? `; not replayed: ${skipped.join(", ")}` : "") +
      (report.interrupted ? " (interrupted: the rest was not sent)" : ""),
  );
  return lines;
}

export function toParityMarkdown(report: ParityReport): string {
  const out: string[] = [
    "# Shape parity",
    "",
    `Recording ${mdCode(report.har)} replayed against ${mdText(report.target)} on ${mdText(report.startedAt)}.`,
    "",
    `**Parity ${shown(report.parity)}**: ${report.identical} of ${report.compared} exchanges identical in shape (status, media type, Retry-After, field paths and their JSON types, enum values).`,
    "",
  ];
  const skipped = skippedPhrases(report);
  if (skipped.length) out.push(`Not replayed: ${mdText(skipped.join(", "))}.`, "");
  if (report.interrupted) out.push("Interrupted: the rest of the recording was not sent.", "");
  out.push("| Operation | Compared | Identical | Parity |", "| --- | ---: | ---: | ---: |");
  for (const op of report.operations)
    out.push(`| ${mdCode(op.operationId, true)} | ${op.compared} | ${op.identical} | ${shown(op.parity)} |`);
  out.push("");
  for (const op of report.operations.filter((o) => o.differences.length > 0)) {
    out.push(
      `## ${mdText(op.operationId)}`,
      "",
      "| Field path | Difference | Exchanges |",
      "| --- | --- | ---: |",
    );
    for (const d of op.differences)
      out.push(`| ${mdCode(d.path, true)} | ${mdText(d.what, true)} | ${d.count}/${op.compared} |`);
    out.push("");
  }
  if (report.skippedEntries.length) {
    out.push("## Not replayed", "", "| Entry | Request | Why |", "| ---: | --- | --- |");
    for (const s of report.skippedEntries)
      out.push(`| ${s.index} | ${mdCode(`${s.method} ${s.path}`, true)} | ${mdText(s.reason, true)} |`);
    out.push("");
  }
  return `${out.join("\n")}\n`;
}
