// report.html: the run's report as one page people look at, beside report.json, junit.xml and
// report.md. It opens offline from a file: the stylesheet is inlined, there is no script at all,
// and its Content-Security-Policy lets it load nothing, so a server's answer quoted in it can
// neither run nor call out even if it got past the escaping. Every string is redacted (the run's
// key redactor, and any Authorization value) and then escaped (src/report-html/escape.ts).

import type { OperationModel, SpecModel } from "@platform-api/spec";
import type { Evidence } from "./context.js";
import { type Report, type ScenarioResult, type ScenarioStatus, trafficLines, verdictOf } from "./report.js";
import { type Redact, textOf } from "./report-html/escape.js";
import { type ExchangeFacts, factsOf, operationOfExchange, percentile } from "./report-html/exchanges.js";
import { STYLE } from "./report-html/style.js";
import { specModel } from "./spec.js";

export interface HtmlReportOptions {
  /** The spec model whose operations the page lists (default: the one the suite judged against). */
  model?: SpecModel;
  /** Applied to every string before it is escaped: give it the run's key redactor. */
  redact?: Redact;
}

const MARK: Record<ScenarioStatus, string> = { passed: "✓", failed: "✗", warned: "!", skipped: "–" };
const WORD: Record<ScenarioStatus, string> = {
  passed: "pass",
  failed: "fail",
  warned: "warn",
  skipped: "skip",
};
const STATUSES: ScenarioStatus[] = ["passed", "failed", "warned", "skipped"];

/** A row of the operations table for results that name no operation of the spec. */
const ELSEWHERE = "(no operation of the spec)";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

export function toHtml(report: Report, options: HtmlReportOptions = {}): string {
  const model = options.model ?? specModel();
  const t = textOf(options.redact ?? ((text) => text));
  const page = new Page(report, model, t);
  const verdict = verdictOf(report);
  const conformant = verdict === "CONFORMANT";
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    `<title>${verdict}: conformance of ${t(report.target)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    "<main>",
    page.header(verdict, conformant),
    page.findings(),
    page.deviations(),
    page.operations(),
    page.latency(),
    page.timeline(),
    page.allResults(),
    page.created(),
    '<footer class="note"><p>Written by @platform-api/conformance from the data of report.json. ' +
      "A single file: no script, nothing loaded from anywhere.</p></footer>",
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

interface Chip {
  result: ScenarioResult;
  /** The check's name without its group. */
  label: string;
}

interface Exchange {
  result: ScenarioResult;
  evidence: Evidence;
  facts: ExchangeFacts;
  operation: string;
}

class Page {
  private readonly results: ScenarioResult[];
  private readonly exchanges: Exchange[];
  private readonly limitedStatus: number;
  /** Each result's anchor: its id, numbered from the second result of the same id on. */
  private readonly anchors = new Map<ScenarioResult, string>();

  constructor(
    private readonly report: Report,
    private readonly model: SpecModel,
    private readonly t: (value: unknown) => string,
  ) {
    this.results = report.scenarios ?? [];
    this.limitedStatus = model.conventions.requestRate.exceededStatus;
    const seen = new Map<string, number>();
    for (const result of this.results) {
      const n = (seen.get(result.id) ?? 0) + 1;
      seen.set(result.id, n);
      this.anchors.set(result, t(n === 1 ? result.id : `${result.id}-${n}`));
    }
    this.exchanges = this.results.flatMap((result) =>
      (result.evidence ?? []).map((evidence) => ({
        result,
        evidence,
        facts: factsOf(evidence),
        operation: operationOfExchange(model, evidence) ?? ELSEWHERE,
      })),
    );
  }

  private anchorOf(result: ScenarioResult): string {
    return this.anchors.get(result) ?? "";
  }

  header(verdict: string, conformant: boolean): string {
    const { t, report } = this;
    const counts = STATUSES.map(
      (s) => `<li class="status ${s}" data-count="${s}">${report.summary[s] ?? 0} ${s}</li>`,
    ).join("");
    const options = Object.entries(report.options ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${t(name)}: ${t(Array.isArray(value) ? value.join(" ") || "—" : value)}`)
      .join(", ");
    return [
      "<header>",
      "<h1>Conformance report</h1>",
      `<section id="verdict" class="verdict ${conformant ? "conformant" : "not-conformant"}">`,
      `<strong>${verdict}</strong>`,
      `<ul class="counts">${counts}<li>${this.results.length} results in ${seconds(report.durationMs)}</li></ul>`,
      "</section>",
      '<dl class="facts">',
      `<dt>Target</dt><dd>${t(report.target)}</dd>`,
      `<dt>Started</dt><dd>${t(report.startedAt)}</dd>`,
      `<dt>Spec</dt><dd>${t(this.model.title)} ${t(this.model.version)}, ${this.model.operations.length} operations</dd>`,
      `<dt>Options</dt><dd>${options || "—"}</dd>`,
      ...trafficLines(report).map((line) => `<dt>Traffic</dt><dd>${t(line)}</dd>`),
      "</dl>",
      '<nav class="note"><a href="#deviations">Deviations</a> · <a href="#operations">Operations × checks</a> · ' +
        '<a href="#latency">Latency</a> · <a href="#timeline">Timeline</a> · <a href="#results">All results</a> · ' +
        '<a href="#created">Created resources</a></nav>',
      "</header>",
    ].join("\n");
  }

  /** A fuzz run's findings, each with its phase, seed and the curl command that reproduces it. */
  findings(): string {
    const { t } = this;
    const fuzz = this.report.fuzz;
    if (!fuzz) return "";
    const items = fuzz.findings.map(
      (f) =>
        `<article class="finding ${f.known ? "warned" : f.severity === "must" ? "failed" : "warned"}">` +
        `<h3><a href="#${t(f.id)}"><code>${t(f.id)}</code></a> (${t(f.severity)}${f.known ? ", known: in the baseline" : ""})</h3>` +
        `<p>${t(f.problem)}</p>` +
        `<p class="note">Smallest request found in phase ${t(f.phase)}, seed ${t(f.seed)}; answered ${t(f.status ?? "nothing")}. Reproduce it:</p>` +
        `<pre class="evidence"><code>${t(f.curl)}</code></pre>` +
        "</article>",
    );
    const replayed = (fuzz.replay ?? []).map(
      (r) =>
        `<li><code>${t(r.id)}</code>: ${r.stillFails ? "still fails" : "passes now"} (${t(r.status ?? "no answer")})</li>`,
    );
    return [
      '<section id="findings">',
      `<h2>Findings of generated requests (${fuzz.findings.length})</h2>`,
      `<p class="note">Seed ${t(fuzz.seed)}, phases ${t(fuzz.phases.join(", "))}, at most ${t(fuzz.maxExamples)} examples per operation: ${t(fuzz.requests)} requests. Send them again with <code>fuzz --replay report.json</code>.</p>`,
      items.length === 0 ? "<p>None.</p>" : items.join("\n"),
      replayed.length === 0 ? "" : `<h3>Replayed</h3><ul>${replayed.join("")}</ul>`,
      "</section>",
    ].join("\n");
  }

  deviations(): string {
    const failing = [
      ...this.results.filter((r) => r.status === "failed"),
      ...this.results.filter((r) => r.status === "warned"),
    ];
    const body =
      failing.length === 0
        ? "<p>None: every check that ran passed.</p>"
        : failing.map((r) => this.deviation(r)).join("\n");
    return `<section id="deviations">\n<h2>Deviations (${failing.length})</h2>\n${body}\n</section>`;
  }

  private deviation(r: ScenarioResult): string {
    const { t } = this;
    const evidence = r.evidence ?? [];
    return [
      `<article class="deviation ${r.status}" id="d-${this.anchorOf(r)}" data-result="${t(r.id)}">`,
      `<h3><span class="status">${MARK[r.status]} ${r.status}</span> <code>${t(r.id)}</code> <span class="muted">(${t(r.severity)})</span></h3>`,
      `<p>${t(r.title)}. Operation: <code>${t(r.operation)}</code>.</p>`,
      `<pre class="reason">${t(r.reason ?? "")}</pre>`,
      evidence.length === 0
        ? '<p class="note">No exchange recorded.</p>'
        : `<p class="note">What was sent and what came back (${evidence.length} exchange${evidence.length === 1 ? "" : "s"}; the suite records no header, and keys are redacted):</p>\n${this.evidenceTable(evidence)}`,
      "</article>",
    ].join("\n");
  }

  private evidenceTable(evidence: Evidence[]): string {
    const { t } = this;
    const facts = evidence.map(factsOf);
    const typed = facts.some((f) => f.contentType !== undefined);
    const timed = facts.some((f) => f.durationMs !== undefined);
    const rows = evidence.map((e, i) => {
      const f = facts[i] ?? factsOf(e);
      const limited = e.status === this.limitedStatus;
      return [
        `<tr class="exchange${limited ? " limited" : ""}${f.cited ? " cited" : ""}">`,
        `<td class="num" data-label="#">${i + 1}</td>`,
        `<td data-label="Request"><code>${t(e.method)} ${t(e.path)}</code>${f.cited ? ' <span class="muted">(cited)</span>' : ""}</td>`,
        `<td class="num" data-label="Status">${e.status === null ? "no answer" : t(e.status)}</td>`,
        typed ? `<td data-label="Content-Type"><code>${t(f.contentType ?? "")}</code></td>` : "",
        `<td data-label="Answer (excerpt)"><pre>${t(e.excerpt)}</pre></td>`,
        timed
          ? `<td class="num" data-label="Time">${ms(f.durationMs)}${f.waitedMs ? `<br><span class="muted">then waited ${ms(f.waitedMs)}</span>` : ""}</td>`
          : "",
        "</tr>",
      ].join("");
    });
    return [
      '<div class="evidence-list scroll"><table class="evidence cards">',
      `<thead><tr><th>#</th><th>Request</th><th>Status</th>${typed ? "<th>Content-Type</th>" : ""}<th>Answer (excerpt)</th>${timed ? "<th>Time</th>" : ""}</tr></thead>`,
      `<tbody>${rows.join("\n")}</tbody>`,
      "</table></div>",
    ].join("\n");
  }

  operations(): string {
    const { t } = this;
    const rows = new Map<string, Map<string, Chip[]>>();
    const groups: string[] = [];
    const known = new Set(this.model.operations.map((o) => o.operationId));
    for (const result of this.results) {
      const named = result.operation.split(/[\s,]+/).filter((id) => known.has(id));
      for (const operation of named.length > 0 ? named : [ELSEWHERE]) {
        const check = checkIdOf(result.id, operation);
        const group = check.split(".")[0] ?? check;
        if (!groups.includes(group)) groups.push(group);
        const cells = rows.get(operation) ?? new Map<string, Chip[]>();
        rows.set(operation, cells);
        const chips = cells.get(group) ?? [];
        cells.set(group, chips);
        if (!chips.some((c) => c.result === result))
          chips.push({ result, label: check === group ? group : check.slice(group.length + 1) });
      }
    }
    const row = (operation: string, spec: OperationModel | undefined) => {
      const cells = rows.get(operation);
      const touched = [...(cells?.values() ?? [])].flat();
      const tally = STATUSES.filter((s) => touched.some((c) => c.result.status === s))
        .map(
          (s) =>
            `<span class="status ${s}">${touched.filter((c) => c.result.status === s).length} ${WORD[s]}</span>`,
        )
        .join(" ");
      const name = spec
        ? `<code>${t(spec.operationId)}</code><span class="op-path">${t(spec.method.toUpperCase())} ${t(spec.path)}</span>`
        : t(operation);
      return [
        `<tr class="operation${touched.length === 0 ? " untouched" : ""}" id="op-${t(operation)}" data-operation="${t(operation)}">`,
        `<th scope="row" data-label="Operation">${name}</th>`,
        `<td data-label="Results">${tally || '<span class="muted">no check ran</span>'}</td>`,
        ...groups.map((group) => {
          const chips = cells?.get(group) ?? [];
          if (chips.length === 0)
            return `<td class="empty" data-label="${t(group)}"><span class="muted">—</span></td>`;
          return `<td data-label="${t(group)}"><div class="chips">${chips.map((c) => this.chip(c.result, c.label)).join("")}</div></td>`;
        }),
        "</tr>",
      ].join("");
    };
    const body = [
      ...this.model.operations.map((o) => row(o.operationId, o)),
      ...(rows.has(ELSEWHERE) ? [row(ELSEWHERE, undefined)] : []),
    ];
    return [
      '<section id="operations">',
      "<h2>Operations × checks</h2>",
      `<p class="note">Every operation of the spec, and the result of every check on it, grouped by the check's first name. ${this.legend()} A result links to its details.</p>`,
      '<div class="scroll"><table class="matrix cards">',
      `<thead><tr><th>Operation</th><th>Results</th>${groups.map((g) => `<th>${t(g)}</th>`).join("")}</tr></thead>`,
      `<tbody>${body.join("\n")}</tbody>`,
      "</table></div>",
      "</section>",
    ].join("\n");
  }

  private legend(): string {
    return STATUSES.map((s) => `<span class="status ${s}">${MARK[s]} ${WORD[s]}</span>`).join(" ");
  }

  private chip(result: ScenarioResult, label: string): string {
    const { t } = this;
    const deviates = result.status === "failed" || result.status === "warned";
    return (
      `<a class="chip ${result.status}" href="#${deviates ? "d" : "r"}-${this.anchorOf(result)}" data-result="${t(result.id)}" ` +
      `data-status="${result.status}" title="${t(result.id)}: ${WORD[result.status]} (${t(result.severity)})">` +
      `${MARK[result.status]}<span class="sr"> ${WORD[result.status]}</span> ${t(label)}</a>`
    );
  }

  latency(): string {
    const { t } = this;
    const byOperation = new Map<string, Exchange[]>();
    for (const exchange of this.exchanges) {
      if (exchange.facts.cited) continue;
      const list = byOperation.get(exchange.operation) ?? [];
      list.push(exchange);
      byOperation.set(exchange.operation, list);
    }
    const timed = this.exchanges.some((e) => e.facts.durationMs !== undefined);
    const row = (operation: string) => {
      const list = byOperation.get(operation) ?? [];
      const statuses = new Map<string, number>();
      for (const { evidence } of list) {
        const key = evidence.status === null ? "no answer" : String(evidence.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
      const byStatus = [...statuses].sort(([a], [b]) => a.localeCompare(b));
      const times = list
        .filter((e) => e.evidence.status !== null)
        .map((e) => e.facts.durationMs)
        .filter((d): d is number => d !== undefined)
        .sort((a, b) => a - b);
      return [
        `<tr data-operation="${t(operation)}">`,
        `<th scope="row" data-label="Operation"><code>${t(operation)}</code></th>`,
        `<td class="num" data-label="Exchanges">${list.length}</td>`,
        `<td data-label="Statuses">${byStatus.map(([s, n]) => `${t(s)} ×${n}`).join(" · ") || "—"}</td>`,
        `<td class="num" data-label="Median">${ms(percentile(times, 50))}</td>`,
        `<td class="num" data-label="p95">${ms(percentile(times, 95))}</td>`,
        "</tr>",
      ].join("");
    };
    const operations = [
      ...this.model.operations.map((o) => o.operationId),
      ...(byOperation.has(ELSEWHERE) ? [ELSEWHERE] : []),
    ];
    const note = timed
      ? "Median and 95th percentile (nearest rank) of the time from sending a request to the end of its answer, over every answered exchange of the operation, retries included."
      : '<strong id="latency-not-recorded">Latency is not recorded in this report:</strong> its evidence holds each exchange\'s method, path, status and an excerpt of the answer, but not how long it took. The exchanges and their statuses are counted.';
    return [
      '<section id="latency">',
      "<h2>Latency per operation</h2>",
      `<p class="note">${note} An exchange one result cites from another is counted once.</p>`,
      '<div class="scroll"><table class="latency cards">',
      "<thead><tr><th>Operation</th><th>Exchanges</th><th>Statuses</th><th>Median</th><th>p95</th></tr></thead>",
      `<tbody>${operations.map(row).join("\n")}</tbody>`,
      "</table></div>",
      "</section>",
    ].join("\n");
  }

  timeline(): string {
    const limited = this.limitedStatus;
    const own = (r: ScenarioResult) => this.exchanges.filter((e) => e.result === r && !e.facts.cited);
    const hitsOf = (r: ScenarioResult) => own(r).filter((e) => e.evidence.status === limited);
    const timed = this.exchanges.some((e) => e.facts.at !== undefined);
    const items = timed ? this.timedBars(own) : this.endToEndBars();
    const waits = this.results.filter((r) => hitsOf(r).length > 0);
    const requestTimes = this.exchanges
      .map((e) => e.facts.at)
      .filter((at): at is number => at !== undefined)
      .sort((a, b) => a - b);
    const waitRows = waits.map((r) => {
      const hits = hitsOf(r);
      const waited = hits.map((e) => e.facts.waitedMs).filter((v): v is number => v !== undefined);
      // The next request anyone sent after the last 429 answer: how long the run held back.
      const last = hits.at(-1);
      const answered =
        last?.facts.at === undefined ? undefined : last.facts.at + (last.facts.durationMs ?? 0);
      const next = answered === undefined ? undefined : requestTimes.find((at) => at >= answered);
      const notRecorded = '<span class="muted">not recorded</span>';
      return [
        `<tr class="wait" data-result="${this.t(r.id)}">`,
        `<th scope="row" data-label="Result"><a href="#r-${this.anchorOf(r)}"><code>${this.t(r.id)}</code></a></th>`,
        `<td class="num" data-label="${limited} answers">${hits.length}</td>`,
        `<td class="num" data-label="Waited before retrying">${
          waited.length > 0
            ? ms(waited.reduce((a, b) => a + b, 0))
            : timed
              ? '<span class="muted">not retried</span>'
              : notRecorded
        }</td>`,
        `<td class="num" data-label="Next request of the run after">${
          answered === undefined ? notRecorded : next === undefined ? "none" : ms(next - answered)
        }</td>`,
        `<td class="num" data-label="Result took">${ms(r.durationMs)}</td>`,
        "</tr>",
      ].join("");
    });
    const waitTable =
      waits.length === 0
        ? `<p id="no-waits">No answer in this run was ${limited} (the spec's status for a request over the rate limit): nothing waited.</p>`
        : [
            `<h3>${limited} answers and the waits after them</h3>`,
            `<p class="note">After a ${limited} the suite waits for its Retry-After (without one, the rate's period) before it sends again, unless the result wanted the ${limited} itself.</p>`,
            '<div class="scroll"><table class="waits cards">',
            `<thead><tr><th>Result</th><th>${limited} answers</th><th>Waited before retrying</th><th>Next request of the run after the last</th><th>Result took</th></tr></thead>`,
            `<tbody>${waitRows.join("\n")}</tbody>`,
            "</table></div>",
          ].join("\n");
    const how = timed
      ? `The run's ${seconds(this.report.durationMs)}, from its start (starting the target, discovery) to its end. Each bar is the time a result took, ending at its last answer; a result that sent nothing has no bar. A ${limited} answer is marked, and the suite's wait before retrying it drawn after the mark.`
      : `The results in the order they ran, each bar as long as it took. This report records no start times, so the bars are laid end to end; ${limited} answers are counted, their waits not recorded.`;
    return [
      '<section id="timeline">',
      "<h2>Timeline</h2>",
      `<p class="note">${how}</p>`,
      `<ul class="legend">${STATUSES.map((s) => `<li class="${s}"><span class="status">${MARK[s]}</span> ${WORD[s]}</li>`).join("")}` +
        `<li><span class="swatch hit"></span>a ${limited} answer</li><li><span class="swatch wait"></span>the wait after it</li></ul>`,
      `<ol class="timeline">${items.join("\n")}</ol>`,
      waitTable,
      "</section>",
    ].join("\n");
  }

  /** Bars placed by the exchanges' own times, with every 429 and the wait after it. */
  private timedBars(own: (r: ScenarioResult) => Exchange[]): string[] {
    const limited = this.limitedStatus;
    const ends = (e: Exchange) => (e.facts.at ?? 0) + (e.facts.durationMs ?? 0);
    const times = this.exchanges.filter((e) => e.facts.at !== undefined);
    const started = Date.parse(this.report.startedAt);
    const from = Math.min(
      Number.isNaN(started) ? Number.POSITIVE_INFINITY : started,
      ...times.map((e) => e.facts.at ?? 0),
    );
    const to = Math.max(
      Number.isNaN(started) ? 0 : started + (this.report.durationMs ?? 0),
      ...times.map((e) => ends(e) + (e.facts.waitedMs ?? 0)),
    );
    const span = Math.max(1, to - from);
    const pct = (time: number) => Math.min(100, Math.max(0, ((time - from) / span) * 100)).toFixed(3);
    return this.results.map((r) => {
      const exchanges = own(r).filter((e) => e.facts.at !== undefined);
      const hits = exchanges.filter((e) => e.evidence.status === limited);
      const waited = hits.reduce((sum, e) => sum + (e.facts.waitedMs ?? 0), 0);
      let track = "";
      if (exchanges.length > 0) {
        const last = Math.max(...exchanges.map(ends));
        // Start times of results are not recorded: a result began its duration before its last answer.
        const first = Math.min(
          ...exchanges.map((e) => e.facts.at ?? 0),
          last - Math.max(0, r.durationMs ?? 0),
        );
        track += `<span class="bar" style="left:${pct(first)}%;width:${(Number(pct(last)) - Number(pct(first))).toFixed(3)}%"></span>`;
        for (const hit of hits) {
          const at = ends(hit);
          track += `<span class="hit" style="left:${pct(at)}%"></span>`;
          if (hit.facts.waitedMs)
            track += `<span class="wait" style="left:${pct(at)}%;width:${(Number(pct(at + hit.facts.waitedMs)) - Number(pct(at))).toFixed(3)}%"></span>`;
        }
      }
      const note =
        exchanges.length === 0
          ? "no exchange of its own"
          : `${ms(r.durationMs)}${hits.length > 0 ? ` · ${limited} ×${hits.length}${waited > 0 ? `, waited ${ms(waited)}` : ""}` : ""}`;
      return this.timelineItem(r, hits.length > 0, note, track);
    });
  }

  /** Bars laid end to end in run order, for a report whose exchanges carry no time. */
  private endToEndBars(): string[] {
    const limited = this.limitedStatus;
    const total = this.results.reduce((sum, r) => sum + Math.max(0, r.durationMs ?? 0), 0);
    let start = 0;
    return this.results.map((r) => {
      const duration = Math.max(0, r.durationMs ?? 0);
      const left = total > 0 ? (start / total) * 100 : 0;
      const width = total > 0 ? (duration / total) * 100 : 0;
      start += duration;
      const hits = (r.evidence ?? []).filter((e) => e.status === limited).length;
      const track = `<span class="bar" style="left:${left.toFixed(3)}%;width:${width.toFixed(3)}%"></span>`;
      return this.timelineItem(
        r,
        hits > 0,
        `${ms(duration)}${hits > 0 ? ` · ${limited} ×${hits}` : ""}`,
        track,
      );
    });
  }

  private timelineItem(r: ScenarioResult, limited: boolean, note: string, track: string): string {
    const { t } = this;
    return (
      `<li class="${r.status}${limited ? " limited" : ""}" data-result="${t(r.id)}" title="${t(r.id)}: ${WORD[r.status]}, ${t(note)}">` +
      `<span class="label">${t(r.id)} · ${t(note)}</span><span class="track">${track}</span></li>`
    );
  }

  allResults(): string {
    const { t } = this;
    const rows = this.results.map((r) => {
      const evidence = r.evidence ?? [];
      return [
        `<tr class="result ${r.status}" id="r-${this.anchorOf(r)}" data-result="${t(r.id)}">`,
        `<td data-label="Status"><span class="status">${MARK[r.status]} ${WORD[r.status]}</span></td>`,
        `<th scope="row" data-label="Result"><code>${t(r.id)}</code><span class="op-path">${t(r.title)}</span></th>`,
        `<td data-label="Severity">${t(r.severity)}</td>`,
        `<td data-label="Operation"><code>${t(r.operation)}</code></td>`,
        `<td class="num" data-label="Took">${ms(r.durationMs)}</td>`,
        `<td data-label="Note">${r.reason ? `<pre>${t(r.reason)}</pre>` : ""}${
          evidence.length > 0
            ? `<details><summary>${evidence.length} exchange${evidence.length === 1 ? "" : "s"}</summary>${this.evidenceTable(evidence)}</details>`
            : ""
        }</td>`,
        "</tr>",
      ].join("");
    });
    return [
      '<section id="results">',
      `<h2>All results (${this.results.length})</h2>`,
      '<input type="checkbox" id="only-deviations"> <label class="filter" for="only-deviations">Only failures and warnings</label>',
      '<div class="scroll"><table class="all cards">',
      "<thead><tr><th>Status</th><th>Result</th><th>Severity</th><th>Operation</th><th>Took</th><th>Note and evidence</th></tr></thead>",
      `<tbody>${rows.join("\n")}</tbody>`,
      "</table></div>",
      "</section>",
    ].join("\n");
  }

  created(): string {
    const { t } = this;
    const created = this.report.createdResources ?? [];
    const body =
      created.length === 0
        ? "<p>None.</p>"
        : [
            "<p>Delete these if the target is a live account:</p>",
            '<div class="scroll"><table class="created cards">',
            "<thead><tr><th>Type</th><th>Id</th><th>Project</th><th>Region</th><th>Task</th></tr></thead>",
            `<tbody>${created
              .map(
                (r) =>
                  `<tr><td data-label="Type">${t(r.type)}</td><td data-label="Id"><code>${t(r.id)}</code></td>` +
                  `<td data-label="Project">${t(r.project_id)}</td><td data-label="Region">${t(r.region_id)}</td>` +
                  `<td data-label="Task"><code>${t(r.task_id)}</code></td></tr>`,
              )
              .join("\n")}</tbody>`,
            "</table></div>",
          ].join("\n");
    return `<section id="created">\n<h2>Created resources (${created.length})</h2>\n${body}\n</section>`;
  }
}

/**
 * The check a result reports for one operation: its id without the operation's own segment
 * (`pagination.offset.count-is-total.listRegions` → `pagination.offset.count-is-total`).
 */
function checkIdOf(resultId: string, operationId: string): string {
  const segments = resultId.split(".");
  const rest = segments.filter((s) => s !== operationId);
  return rest.length > 0 ? rest.join(".") : resultId;
}

function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return "—";
  return value >= 10_000 ? seconds(value) : `${Math.round(value)} ms`;
}

function seconds(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? "—" : `${(value / 1000).toFixed(1)} s`;
}
