// The run's report in Markdown and JUnit, and what the terminal shows of it (report.json's data:
// src/shared/results.ts, put together in src/judge/build-report.ts). Every string
// passes through `redact` (src/shared/redact.ts) first, so a key the target echoed never reaches a file
// or the screen; excerpts were cut from text the HTTP layer had already redacted.

import type { Evidence } from "../shared/context.js";
import { showControls } from "../shared/controls.js";
import { mdCode, mdText } from "../shared/markdown.js";
import type { FuzzReport, Report, ScenarioResult, ScenarioStatus } from "../shared/results.js";

/**
 * The run's verdict in words: flaky results alone leave it CONFORMANT (the summary counts them),
 * unless --fail-on-flaky. Traffic with nothing to judge is neither conformant nor not, and
 * neither is a fuzz run stopped before its end (an interrupt) that failed nothing so far.
 */
export function verdictOf(
  report: Report,
): "CONFORMANT" | "NOT CONFORMANT" | "NOTHING JUDGED" | "STOPPED EARLY" {
  if (report.summary.failed > 0) return "NOT CONFORMANT";
  if (report.options.failOnFlaky === true && (report.summary.flaky ?? 0) > 0) return "NOT CONFORMANT";
  if (report.fuzz?.stopped) return "STOPPED EARLY";
  return report.traffic?.judged === 0 ? "NOTHING JUDGED" : "CONFORMANT";
}

// The redactor lives in one module; the report's users import it from here too.
export { createRedactor, redactDeep } from "../shared/redact.js";

const ICON: Record<ScenarioStatus, string> = {
  passed: "✅",
  failed: "❌",
  warned: "⚠️",
  skipped: "⏭️",
  flaky: "🔁",
};

/** What a result is shown for first: the exchanges it failed on, then the answers its request got again. */
export function failedFirst(
  s: ScenarioResult,
): { evidence: Evidence; role: "failed on" | "sent again" | "" }[] {
  const on = new Set(s.failedOn ?? []);
  const again = new Set(s.flaky?.retriedOn ?? []);
  const role = (i: number) => (on.has(i) ? "failed on" : again.has(i) ? "sent again" : "");
  const order = [...on, ...again, ...s.evidence.keys()].filter((i, at, all) => all.indexOf(i) === at);
  return order.flatMap((i) => {
    const evidence = s.evidence[i];
    return evidence ? [{ evidence, role: role(i) }] : [];
  });
}

/** The answer a result failed on, as one line ("GET /path → 500"), and what names it across results. */
export function causeOf(s: ScenarioResult): { key: string; said: string } | undefined {
  const e = s.evidence[s.failedOn?.[0] ?? -1];
  if (!e) return undefined;
  const said = `${e.method} ${e.path} ${e.status ?? "no answer"}`;
  return { key: e.seq !== undefined ? `#${e.seq}` : `${said} ${e.at ?? ""}`, said };
}

/**
 * Failed, warned and flaky results grouped by the one answer they failed on, where it is more than
 * one: "6 results failed on one answer: GET … 500".
 */
export function causes(report: Report): { said: string; ids: string[] }[] {
  const groups = new Map<string, { said: string; ids: string[] }>();
  for (const s of report.scenarios) {
    if (s.status !== "failed" && s.status !== "warned" && s.status !== "flaky") continue;
    const cause = causeOf(s);
    if (!cause) continue;
    const group = groups.get(cause.key) ?? { said: cause.said, ids: [] };
    group.ids.push(s.id);
    groups.set(cause.key, group);
  }
  return [...groups.values()].filter((g) => g.ids.length > 1);
}

/** A group of results by cause, in a line. */
export const causeLine = (g: { said: string; ids: string[] }): string =>
  `${g.ids.length} results failed on one answer: ${g.said}`;

export function toMarkdown(report: Report): string {
  const { summary } = report;
  const lines = [
    "# Conformance report",
    "",
    `Target: ${mdText(report.target, true)}  `,
    `Started: ${report.startedAt}, took ${(report.durationMs / 1000).toFixed(1)} s  `,
    `**${summary.passed} passed, ${summary.failed} failed, ${summary.warned} warned, ${summary.skipped} skipped, ${summary.flaky ?? 0} flaky**`,
    "",
  ];
  if (report.traffic)
    lines.push("## Traffic", "", ...trafficLines(report).map((l) => `- ${mdText(l, true)}`), "");
  if (report.fuzz) lines.push(...fuzzLines(report.fuzz));
  const failing = report.scenarios.filter(
    (s) => s.status === "failed" || s.status === "warned" || s.status === "flaky",
  );
  if (failing.length > 0) {
    lines.push("## Deviations", "");
    const grouped = causes(report);
    if (grouped.length > 0) {
      lines.push("By cause:", "");
      for (const g of grouped)
        lines.push(`- ${mdText(causeLine(g), true)}: ${g.ids.map((id) => mdCode(id, true)).join(", ")}`);
      lines.push("");
    }
    for (const s of failing) {
      lines.push(
        `### ${ICON[s.status]} ${mdCode(s.id)} (${s.severity})`,
        "",
        `${mdText(s.title, true)}. Operation: ${mdCode(s.operation)}.`,
        "",
      );
      lines.push(`> ${mdText(s.reason ?? "").replace(/\n/g, "\n> ")}`, "");
      if (s.curl) lines.push("Reproduce the request it failed on:", "", ...codeBlock("sh", s.curl), "");
      if (s.evidence.length > 0) {
        lines.push("| | Method | Path | Status | Excerpt |", "| - | - | - | - | - |");
        for (const { evidence: e, role } of failedFirst(s).slice(0, 8))
          lines.push(
            `| ${role} | ${cell(e.method)} | ${mdCode(e.path, true)} | ${cell(String(e.status ?? "no answer"))} | ${cell(e.excerpt)} |`,
          );
        lines.push("");
      }
    }
  }
  lines.push("## All scenarios", "", "| | Scenario | Severity | Operation | Note |", "| - | - | - | - | - |");
  for (const s of report.scenarios)
    lines.push(
      `| ${ICON[s.status]} | ${mdCode(s.id, true)} | ${s.severity} | ${mdCode(s.operation, true)} | ${cell(s.reason ?? "")} |`,
    );
  lines.push("");
  lines.push("## Created resources", "");
  if (report.createdResources.length === 0) lines.push("None.");
  else {
    lines.push(
      "Delete these if the target is a live account:",
      "",
      "| Type | Id | Project | Region | Task |",
      "| - | - | - | - | - |",
    );
    for (const r of report.createdResources)
      lines.push(
        `| ${cell(r.type)} | ${mdCode(String(r.id), true)} | ${cell(String(r.project_id ?? ""))} | ${cell(String(r.region_id ?? ""))} | ${cell(String(r.task_id ?? ""))} |`,
      );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * A fenced code block of text from the run: its fence longer than any run of backticks in it, so
 * nothing closes it early, and invisible or control characters shown as escapes (src/shared/controls.ts).
 */
function codeBlock(language: string, text: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, showControls(text, "\t"), fence];
}

/** A fuzz run's generation and each finding's reproducer, for report.md. */
function fuzzLines(fuzz: FuzzReport): string[] {
  const lines = [
    "## Generated requests",
    "",
    `Seed ${fuzz.seed}, phases ${fuzz.phases.join(", ")}, at most ${fuzz.maxExamples} examples per operation: ${fuzz.requests} requests, ${fuzz.findings.length} findings${fuzz.baseline ? ` (${fuzz.baseline.known} accepted by ${mdText(fuzz.baseline.file, true)})` : ""}.`,
    "",
  ];
  if (fuzz.stopped)
    lines.push(`**Stopped early:** ${mdText(fuzz.stopped)}. What is below is what was sent before.`, "");
  for (const r of fuzz.restored ?? [])
    lines.push(`- Read before it was changed: ${mdCode(`${r.operationId} ${r.path}`)}: ${mdText(r.outcome)}`);
  if ((fuzz.restored ?? []).length > 0) lines.push("");
  for (const f of fuzz.findings) {
    const flaky = f.tries && f.tries.failed < f.tries.of && !f.known;
    lines.push(
      `### ${f.known ? "⚠️ known: " : flaky ? `${ICON.flaky} flaky:` : ICON.failed} ${mdCode(f.id)} (${f.severity}, phase ${f.phase}, seed ${f.seed}${f.tries ? `; failed ${f.tries.failed} of ${f.tries.of} tries` : ""})`,
      "",
      `> ${mdText(f.problem).replace(/\n/g, "\n> ")}`,
      "",
      ...codeBlock("sh", f.curl),
      "",
    );
  }
  for (const r of fuzz.replay ?? [])
    lines.push(
      r.skipped !== undefined
        ? `- not sent: ${mdCode(r.id)}: ${mdText(r.skipped)}`
        : `- ${r.stillFails ? "still fails" : "passes now"}: ${mdCode(r.id)} → ${r.status ?? "no answer"}`,
    );
  return lines;
}

/** A table cell of text from the run: cut to 160 characters, then shown as written (src/shared/markdown.ts). */
function cell(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return mdText(flat.length > 160 ? `${flat.slice(0, 160)}…` : flat, true);
}

export function toJunit(report: Report): string {
  const { summary } = report;
  const failures = summary.failed;
  const cases = report.scenarios.map((s) => {
    const open = `    <testcase classname="${xml(s.id.split(".")[0] ?? s.id)}" name="${xml(`${s.id} (${s.severity})`)}" time="${(s.durationMs / 1000).toFixed(3)}"`;
    const evidence = s.evidence.map((e) => `${e.method} ${e.path} -> ${e.status ?? "no answer"}`).join("\n");
    if (s.status === "failed")
      return `${open}>\n      <failure message="${xml(s.reason ?? "")}">${xml(`${s.reason ?? ""}\n\n${evidence}`)}</failure>\n    </testcase>`;
    if (s.status === "skipped")
      return `${open}>\n      <skipped message="${xml(s.reason ?? "")}"/>\n    </testcase>`;
    if (s.status === "flaky")
      return `${open}>\n      <system-out>${xml(`flaky: ${s.reason ?? ""}\n\n${evidence}`)}</system-out>\n    </testcase>`;
    if (s.status === "warned")
      return `${open}>\n      <system-out>${xml(`warning (should): ${s.reason ?? ""}\n\n${evidence}`)}</system-out>\n    </testcase>`;
    return `${open}/>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="platform-api conformance" tests="${report.scenarios.length}" failures="${failures}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${xml(report.target)}" tests="${report.scenarios.length}" failures="${failures}" skipped="${summary.skipped}" timestamp="${report.startedAt}">`,
    ...cases,
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}

function xml(text: string): string {
  // XML 1.0 allows no control characters but tab, line feed and carriage return; those and bidi
  // overrides a CI's page would obey are shown as escapes instead.
  const printable = showControls(text, "\t\n\r");
  return printable.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** What the traffic held and what the judge let go, in words (observe and verify --har only). */
export function trafficLines(report: Report): string[] {
  const t = report.traffic;
  if (!t) return [];
  const lines = [
    `traffic: ${t.exchanges} exchanges, ${t.judged} judged, ${t.undescribed.count} to operations the spec does not describe, ${t.noAnswer} without an answer`,
  ];
  if (t.undescribed.count > 0) lines.push(`not described by the spec: ${t.undescribed.examples.join(", ")}`);
  const dropped = Object.entries(t.dropped).filter(([, n]) => n > 0);
  if (dropped.length > 0)
    lines.push(
      `dropped to stay within the judge's limits: ${dropped.map(([what, n]) => `${n} ${what}`).join(", ")} (walks and tasks forgotten before they ended, items past ${t.limits.itemsPerWalk} per walk, bodies over 8 MiB, tokens past ${t.limits.tokens})`,
    );
  return lines;
}
