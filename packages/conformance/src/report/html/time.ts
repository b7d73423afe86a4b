// report.html's "Where the time went": the whole run split into the time requests were in flight,
// the waits by reason and the suite's own time, adding up to the run's duration. A run's report.json
// holds the account (`time`, made as the run went: src/report/progress.ts); a report without one (traffic,
// an older run) gets one made from its evidence's exchanges, said as such. A report is read back
// from a file anyone may have written: every figure is checked before it is shown.

import type { Report } from "../../shared/results.js";
import { factsOf } from "./exchanges.js";

export interface ShownAccount {
  requests: { count: number; ms: number };
  waits: { reason: string; count: number; ms: number }[];
  suiteMs: number;
  /** Made from the evidence (no `time` in the report): its exchanges only, waits by their answer. */
  derived: boolean;
}

const count = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;

/** The report's own account when it is well formed, else one made from the evidence. */
export function timeAccountOf(report: Report): ShownAccount {
  const total = count(report.durationMs) ?? 0;
  const time = report.time as Partial<Report["time"]> | undefined;
  if (time && typeof time === "object") {
    const requests = time.requests as { count?: unknown; ms?: unknown } | undefined;
    const waits = Array.isArray(time.waits) ? time.waits : [];
    const shown = waits
      .map((w) => ({ reason: String(w?.reason ?? ""), count: count(w?.count), ms: count(w?.ms) }))
      .filter((w): w is ShownAccount["waits"][number] => w.count !== undefined && w.ms !== undefined);
    const requestsMs = count(requests?.ms);
    const suiteMs = count(time.suiteMs);
    if (requestsMs !== undefined && suiteMs !== undefined && shown.length === waits.length)
      return {
        requests: { count: count(requests?.count) ?? 0, ms: requestsMs },
        waits: shown,
        suiteMs,
        derived: false,
      };
  }
  return fromEvidence(report, total);
}

/**
 * From the evidence: each exchange once (one cited by several results is the same exchange), the
 * time with one in flight, and each recorded wait after its answer by that answer's status.
 */
function fromEvidence(report: Report, total: number): ShownAccount {
  const started = Date.parse(report.startedAt);
  const end = started + total;
  const seen = new Set<string>();
  const requests: [number, number][] = [];
  const waits = new Map<string, [number, number][]>();
  for (const result of report.scenarios ?? [])
    for (const evidence of result.evidence ?? []) {
      const facts = factsOf(evidence);
      if (facts.at === undefined) continue;
      const key = `${evidence.method} ${evidence.path} ${evidence.status} ${facts.at} ${facts.durationMs}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const answered = facts.at + (facts.durationMs ?? 0);
      requests.push([facts.at, answered]);
      if (facts.waitedMs) {
        const reason = `after ${evidence.status ?? "no answer"}`;
        waits.set(reason, [...(waits.get(reason) ?? []), [answered, answered + facts.waitedMs]]);
      }
    }
  const clip = (spans: [number, number][]) =>
    Number.isNaN(started)
      ? spans
      : spans.map(([a, b]): [number, number] => [Math.max(a, started), Math.min(b, end)]);
  let covered = union(clip(requests));
  const requestsMs = measure(covered);
  const shown = [...waits].map(([reason, spans]) => {
    const own = union(clip(spans));
    const ms = measure(own) - overlap(own, covered);
    covered = union([...covered, ...own]);
    return { reason, count: spans.length, ms: Math.round(ms) };
  });
  const waited = shown.reduce((sum, w) => sum + w.ms, 0);
  return {
    requests: { count: seen.size, ms: Math.round(requestsMs) },
    waits: shown.sort((a, b) => b.ms - a.ms),
    suiteMs: Math.max(0, Math.round(total - requestsMs - waited)),
    derived: true,
  };
}

function union(spans: [number, number][]): [number, number][] {
  const merged: [number, number][] = [];
  for (const [a, b] of spans.filter(([x, y]) => y > x).sort((x, y) => x[0] - y[0])) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

const measure = (spans: [number, number][]) => spans.reduce((sum, [a, b]) => sum + b - a, 0);

function overlap(spans: [number, number][], covered: [number, number][]): number {
  let ms = 0;
  for (const [a, b] of spans)
    for (const [c, d] of covered) ms += Math.max(0, Math.min(b, d) - Math.max(a, c));
  return ms;
}

/** What a wait's reason means, in the table. */
function waitLabel(reason: string): string {
  if (reason === "pacing") return "Pacing: the suite's own rate limit between requests";
  if (reason === "after no answer") return "Waiting before a retry, after no answer";
  return `Waiting before a retry, ${reason}`;
}

/** The section's table; `t` escapes for HTML, `duration` shows milliseconds. */
export function timeSection(
  report: Report,
  t: (value: unknown) => string,
  duration: (ms: number) => string,
): string {
  const account = timeAccountOf(report);
  const total = count(report.durationMs) ?? 0;
  const share = (ms: number) => (total > 0 ? `${Math.round((ms / total) * 100)}%` : "—");
  const row = (part: string, label: string, ms: number) =>
    `<tr data-part="${t(part)}" data-ms="${ms}"><th scope="row" data-label="Part">${label}</th>` +
    `<td class="num" data-label="Time">${duration(ms)}</td><td class="num" data-label="Share">${share(ms)}</td></tr>`;
  const { requests } = account;
  const rows = [
    row(
      "requests",
      `Requests in flight: ${requests.count} ${account.derived ? "exchanges in the evidence" : "sent, retries included"} (parallel ones counted once)`,
      requests.ms,
    ),
    ...account.waits.map((w) =>
      row(`wait ${w.reason}`, `${t(waitLabel(w.reason))} <span class="muted">(${w.count}×)</span>`, w.ms),
    ),
    row(
      "suite",
      account.derived
        ? "The rest: the suite's own work and any wait its evidence does not record"
        : "The suite's own work: starting, discovery's and the judge's work, task polls' pauses, the reports",
      account.suiteMs,
    ),
  ];
  return [
    '<div id="where-the-time-went">',
    "<h3>Where the time went</h3>",
    `<p class="note">The run took ${t(duration(total))}; its parts below add up to it.${
      account.derived
        ? " This report holds no time account of its own: the parts are made from its evidence, which may not hold every exchange."
        : ""
    }</p>`,
    '<div class="scroll"><table class="time cards">',
    "<thead><tr><th>Part</th><th>Time</th><th>Share</th></tr></thead>",
    `<tbody>${rows.join("\n")}</tbody>`,
    `<tfoot>${row("total", "The whole run", total)}</tfoot>`,
    "</table></div>",
    "</div>",
  ].join("\n");
}
