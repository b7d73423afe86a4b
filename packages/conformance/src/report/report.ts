// The run's report: what report.json holds, and its Markdown and JUnit renderings. Every string
// passes through `redact` (src/redact.ts) first, so a key the target echoed never reaches a file
// or the screen; excerpts were cut from text the HTTP layer had already redacted.

import type { Finding } from "../fuzz/finding.js";
import type { CreatedResource, Evidence, Severity } from "../shared/context.js";
import { showControls } from "../shared/controls.js";
import { mdCode, mdText } from "../shared/markdown.js";
import { redactDeep } from "../shared/redact.js";
import { hideCredentials } from "../spec/credential-names.js";
import type { TimeAccount } from "./progress.js";

/**
 * `flaky`: it failed on a 5xx or a lost answer that did not repeat when its request was sent again
 * (src/flaky.ts). Counted apart: alone it is no failure, unless --fail-on-flaky.
 */
export type ScenarioStatus = "passed" | "failed" | "warned" | "skipped" | "flaky";

export interface ScenarioResult {
  id: string;
  title: string;
  severity: Severity;
  status: ScenarioStatus;
  operation: string;
  /** The registry rule it reports (src/rules/), for a result of one: `${check}.${operation}` is its id. */
  check?: string;
  reason: string | null;
  evidence: Evidence[];
  /** Failed, warned or flaky: indexes into `evidence` of the exchanges it failed on (shown first). */
  failedOn?: number[];
  /** Flaky: indexes into `evidence` of the exchanges its failed request got when sent again. */
  flaky?: { retriedOn: number[] };
  /** Failed, warned or flaky: a curl command that sends the request it failed on again (the token as "$VARIABLE"). */
  curl?: string;
  durationMs: number;
  created?: CreatedResource[];
  /** --dry-run only: what it would call, and whether it would run. */
  calls?: string[];
  plan?: "run" | "skip";
}

/** What traffic held, and what the judge let go to stay within its limits (`observe`, `verify --har`). */
export interface TrafficSummary {
  /** Every exchange seen. */
  exchanges: number;
  /** Exchanges of an operation the spec describes, judged. */
  judged: number;
  /** Requests that got no answer (the upstream unreachable, the connection cut). */
  noAnswer: number;
  /** Exchanges to an operation the spec does not describe: counted apart, never judged. */
  undescribed: { count: number; examples: string[] };
  /** What the judge let go to stay within its limits; all zero when it kept everything. */
  dropped: { walks: number; items: number; tasks: number; tokens: number; bodies: number };
  limits: JudgeLimits;
}

/** The judge's bounds (src/judge/judge.ts LIMITS), as a report states them. */
export interface JudgeLimits {
  walks: number;
  itemsPerWalk: number;
  tasks: number;
  tokens: number;
  evidence: number;
  problems: number;
  undescribed: number;
}

export interface Report {
  target: string;
  startedAt: string;
  durationMs: number;
  options: Record<string, unknown>;
  /** `flaky` counts results whose 5xx or lost answer did not repeat (absent in reports of older versions). */
  summary: { passed: number; failed: number; warned: number; skipped: number; flaky?: number };
  scenarios: ScenarioResult[];
  createdResources: CreatedResource[];
  /** `observe` and `verify --har` only: what the traffic held, and what the judge let go. */
  traffic?: TrafficSummary;
  /** `fuzz` only: how it generated, and each finding with its smallest request. */
  fuzz?: FuzzReport;
  /** Where the run's time went (an active run and fuzz): its parts add up to durationMs. */
  time?: TimeAccount;
}

/** What a fuzz run adds to its report. */
export interface FuzzReport {
  seed: number;
  phases: string[];
  maxExamples: number;
  /** Requests generated and sent (retries not counted). */
  requests: number;
  /** One per failed result: its smallest request, as JSON and as curl. */
  findings: Finding[];
  /** The --baseline file, and how many findings it accepted. */
  baseline?: { file: string; known: number };
  /** `--replay`: each finding sent again, and whether it still fails (or why it was not sent). */
  replay?: { id: string; severity: Severity; stillFails: boolean; status: number | null; skipped?: string }[];
  /** Answers larger than the suite reads (MAX_ANSWER_BYTES): cut, their bodies not judged. */
  cutAnswers?: number;
  /** Why the run ended before its phases (or its replay) did: an interrupt, a target that failed everything. */
  stopped?: string;
  /** Each resource a PUT replaced, read first, and what became of putting it back. */
  restored?: { operationId: string; path: string; outcome: string }[];
}

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

export function summarize(scenarios: ScenarioResult[]): Report["summary"] {
  const summary = { passed: 0, failed: 0, warned: 0, skipped: 0, flaky: 0 };
  for (const s of scenarios) summary[s.status]++;
  return summary;
}

// The redactor lives in one module; the report's users import it from here too.
export { createRedactor, redactDeep } from "../shared/redact.js";

/**
 * The one place a report is put together, for an active run and for traffic alike: its summary
 * counted from its results, every string redacted.
 */
export function buildReport(
  run: {
    target: string;
    startedAt: Date;
    options: Record<string, unknown>;
    scenarios: ScenarioResult[];
    createdResources?: CreatedResource[];
    traffic?: TrafficSummary;
    fuzz?: FuzzReport;
  },
  redact: (text: string) => string,
): Report {
  const report: Report = {
    target: run.target,
    startedAt: run.startedAt.toISOString(),
    durationMs: Date.now() - run.startedAt.getTime(),
    options: run.options,
    summary: summarize(run.scenarios),
    scenarios: run.scenarios,
    createdResources: run.createdResources ?? [],
    ...(run.traffic ? { traffic: run.traffic } : {}),
    ...(run.fuzz ? { fuzz: run.fuzz } : {}),
  };
  // A credential known only by its name (a client's own header, query parameter or body field) is
  // hidden here too, for every producer's report.
  return redactDeep(report, (text) => hideCredentials(redact(text)));
}

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
 * nothing closes it early, and invisible or control characters shown as escapes (src/controls.ts).
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

/** A table cell of text from the run: cut to 160 characters, then shown as written (src/markdown.ts). */
function cell(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return mdText(flat.length > 160 ? `${flat.slice(0, 160)}…` : flat, true);
}

export function toJunit(report: Report): string {
  const { summary } = report;
  const failures = summary.failed;
  const cases = report.scenarios.map((s) => {
    const open = `    <testcase classname="${xml(s.id.split("..")[0] ?? s.id)}" name="${xml(`${s.id} (${s.severity})`)}" time="${(s.durationMs / 1000).toFixed(3)}"`;
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
