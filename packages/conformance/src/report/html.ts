// report.html: the run's report as one page people look at, beside the other report formats
// (src/report/formats.ts). It opens offline from a file: the stylesheet is inlined, and its
// Content-Security-Policy lets it load nothing and run only its own filter script, allowed by its
// hash (src/report/html/filters.ts), so a server's answer quoted in it can neither run nor call
// out even if it got past the escaping. With script off everything is shown. Every string is
// redacted (the run's key redactor, and any Authorization value) and then escaped
// (src/report/html/escape.ts); what an exchange recorded is bounded again as it is shown.

import type { OperationModel, SpecModel } from "@platform-api/spec";
import { specModel } from "../facts/spec.js";
import { cutText, shownHeaders } from "../http/shown-headers.js";
import type { Evidence } from "../shared/context.js";
import type { Report, ScenarioResult, ScenarioStatus } from "../shared/results.js";
import { type Redact, textOf } from "./html/escape.js";
import { type ExchangeFacts, factsOf, operationOfExchange, percentile } from "./html/exchanges.js";
import { FILTER_SCRIPT, scriptSource } from "./html/filters.js";
import { STYLE } from "./html/style.js";
import { counted, countsText, summariseReason } from "./html/summaries.js";
import { timeSection } from "./html/time.js";
import { causeLine, causes, trafficLines, verdictOf } from "./report.js";

export interface HtmlReportOptions {
  /** The spec model whose operations the page lists (default: the one the suite judged against). */
  model?: SpecModel;
  /** Applied to every string before it is escaped: give it the run's key redactor. */
  redact?: Redact;
}

const MARK: Record<ScenarioStatus, string> = {
  passed: "✓",
  failed: "✗",
  warned: "!",
  skipped: "–",
  flaky: "~",
};
const WORD: Record<ScenarioStatus, string> = {
  passed: "pass",
  failed: "fail",
  warned: "warn",
  skipped: "skip",
  flaky: "flaky",
};
const STATUSES: ScenarioStatus[] = ["passed", "failed", "warned", "flaky", "skipped"];
/** The order things are listed in: what needs looking at first. */
const URGENCY: ScenarioStatus[] = ["failed", "warned", "flaky", "skipped", "passed"];

/** A row of the operations table for results that name no operation of the spec. */
const ELSEWHERE = "(no operation of the spec)";

/** What the page shows of a body or a header at most, whatever a report read back holds. */
const SHOWN = { body: 2000, headers: { headers: 64, value: 1024 } };
/** Skip reasons listed in the verdict; the rest are counted. */
const SKIP_REASONS = 8;
/** The slowest exchanges listed. */
const SLOWEST = 10;

const csp = () =>
  `default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptSource()}; base-uri 'none'; form-action 'none'`;

export function toHtml(report: Report, options: HtmlReportOptions = {}): string {
  const model = options.model ?? specModel();
  const t = textOf(options.redact ?? ((text) => text));
  const page = new Page(report, model, t);
  const verdict = verdictOf(report);
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${csp()}">`,
    `<title>${verdict}: conformance of ${t(report.target)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    "<main>",
    page.header(verdict),
    page.filters(),
    page.findings(),
    page.deviations(),
    page.operations(),
    page.latency(),
    page.timeline(),
    page.allResults(),
    page.created(),
    '<footer class="note"><p>Written by @platform-api/conformance from the data of report.json. ' +
      "A single file: nothing loaded from anywhere; its one script only filters what is shown and copies a command.</p></footer>",
    "</main>",
    `<script>${FILTER_SCRIPT}</script>`,
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
  private readonly known: Set<string>;
  /** Each result's anchor: its id, numbered from the second result of the same id on. */
  private readonly anchors = new Map<ScenarioResult, string>();

  constructor(
    private readonly report: Report,
    private readonly model: SpecModel,
    private readonly t: (value: unknown) => string,
  ) {
    this.results = report.scenarios ?? [];
    this.limitedStatus = model.conventions.requestRate.exceededStatus;
    this.known = new Set(model.operations.map((o) => o.operationId));
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

  /** The operations of the spec a result names. */
  private operationsOf(result: ScenarioResult): string[] {
    return String(result.operation ?? "")
      .split(/[\s,]+/)
      .filter((id) => this.known.has(id));
  }

  /** The check a result reports: its registry check, else its id without its operation. */
  private checkOf(result: ScenarioResult): string {
    return result.check ?? checkIdOf(result.id, this.operationsOf(result)[0] ?? "");
  }

  /** The attributes the filters read. */
  private filterData(result: ScenarioResult, operations = this.operationsOf(result)): string {
    const { t } = this;
    return (
      `data-filter data-status="${result.status}" data-operations="${t((operations.length > 0 ? operations : [ELSEWHERE]).join(" "))}" ` +
      `data-check="${t(this.checkOf(result))}" data-search="${t(result.id)}"`
    );
  }

  header(verdict: string): string {
    const { t, report } = this;
    const summary: Record<string, number | undefined> = report.summary ?? {};
    const counts = STATUSES.map(
      (s) => `<li class="status ${s}" data-count="${s}">${summary[s] ?? 0} ${s}</li>`,
    ).join("");
    const options = Object.entries(report.options ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${t(name)}: ${t(Array.isArray(value) ? value.join(" ") || "—" : value)}`)
      .join(", ");
    const total = this.results.length;
    const skipped = this.results.filter((r) => r.status === "skipped");
    const ran = total - skipped.length;
    // A verdict over a few results is no verdict over the many that did not run: say how few ran.
    const thin = skipped.length > 0 && skipped.length * 2 > total;
    const reasons = counted(skipped.map((r) => r.reason ?? "no reason given"));
    const reasonItems = reasons
      .slice(0, SKIP_REASONS)
      .map(([reason, n]) => `<li><span class="count">${n} ×</span> ${t(reason)}</li>`);
    const otherReasons = reasons.slice(SKIP_REASONS).reduce((sum, [, n]) => sum + n, 0);
    if (otherReasons > 0) reasonItems.push(`<li>${otherReasons} with other reasons (see All results)</li>`);
    const skips =
      skipped.length === 0
        ? ""
        : `<details class="skips"${thin ? " open" : ""}><summary>Why ${skipped.length} ${skipped.length === 1 ? "was" : "were"} skipped</summary><ul>${reasonItems.join("")}</ul></details>`;
    const kind =
      verdict === "NOT CONFORMANT"
        ? "not-conformant"
        : verdict === "CONFORMANT" && !thin
          ? "conformant"
          : "thin";
    return [
      "<header>",
      "<h1>Conformance report</h1>",
      `<section id="verdict" class="verdict ${kind}">`,
      `<strong>${verdict}</strong>`,
      thin
        ? `<p class="qualifier" id="mostly-skipped">…on ${ran} of ${total} results only: ${skipped.length} were skipped, so most of the spec's rules were not checked.</p>`
        : "",
      `<ul class="counts">${counts}<li>${total} results in ${seconds(report.durationMs)}</li></ul>`,
      skips,
      "</section>",
      '<dl class="facts">',
      `<dt>Target</dt><dd>${t(report.target)}</dd>`,
      `<dt>Started</dt><dd>${t(report.startedAt)}</dd>`,
      `<dt>Spec</dt><dd>${t(this.model.title)} ${t(this.model.version)}, ${this.model.operations.length} operations</dd>`,
      `<dt>Options</dt><dd>${options || "—"}</dd>`,
      ...trafficLines(report).map((line) => `<dt>Traffic</dt><dd>${t(line)}</dd>`),
      "</dl>",
      '<nav class="note"><a href="#deviations">Deviations</a> · <a href="#operations">Operations × checks</a> · ' +
        '<a href="#latency">Latency</a> · <a href="#timeline">Where the time went</a> · <a href="#results">All results</a> · ' +
        '<a href="#created">Created resources</a></nav>',
      "</header>",
    ].join("\n");
  }

  /** The filter form: hidden until its script shows it (src/report/html/filters.ts). */
  filters(): string {
    const { t } = this;
    const count = (s: ScenarioStatus) => this.results.filter((r) => r.status === s).length;
    const boxes = URGENCY.map(
      (s) =>
        `<label class="status ${s}"><input type="checkbox" name="status" value="${s}" checked> ${s} (${count(s)})</label>`,
    ).join(" ");
    const operations = [
      ...this.model.operations.map((o) => o.operationId),
      ...(this.results.some((r) => this.operationsOf(r).length === 0) ? [ELSEWHERE] : []),
    ];
    const checks = [...new Set(this.results.map((r) => this.checkOf(r)))].sort();
    return [
      '<form id="filters" class="filters" role="search" hidden>',
      `<fieldset><legend>Status</legend>${boxes}</fieldset>`,
      `<label>Operation <select name="operation"><option value="">all operations</option>${operations.map((o) => `<option value="${t(o)}">${t(o)}</option>`).join("")}</select></label>`,
      `<label>Check <select name="check"><option value="">all checks</option>${checks.map((c) => `<option value="${t(c)}">${t(c)}</option>`).join("")}</select></label>`,
      '<label>Search <input type="search" name="search" placeholder="id, path, status, text" autocomplete="off"></label>',
      '<output id="filter-count" aria-live="polite"></output>',
      "</form>",
      '<noscript><p class="note" id="filters-need-script">Filtering by status, operation, check and words needs script, which is off: every result is shown.</p></noscript>',
    ].join("\n");
  }

  /** A fuzz run's findings, each with its phase, seed and the curl command that reproduces it. */
  findings(): string {
    const { t } = this;
    const fuzz = this.report.fuzz;
    if (!fuzz) return "";
    const items = fuzz.findings.map(
      (f) =>
        `<article class="finding ${f.known ? "warned" : f.tries && f.tries.failed < f.tries.of ? "flaky" : f.severity === "must" ? "failed" : "warned"}">` +
        `<h3><a href="#${t(f.id)}"><code>${t(f.id)}</code></a> (${t(f.severity)}${f.known ? ", known: in the baseline" : ""}${f.tries ? `; failed ${t(f.tries.failed)} of ${t(f.tries.of)} tries${f.tries.failed < f.tries.of ? ": flaky" : ""}` : ""})</h3>` +
        `<p>${t(f.problem)}</p>` +
        `<p class="note">Smallest request found in phase ${t(f.phase)}, seed ${t(f.seed)}; answered ${t(f.status ?? "nothing")}. Reproduce it:</p>` +
        `<div class="curl"><pre class="evidence"><code>${t(f.curl)}</code></pre>` +
        '<button type="button" class="copy" data-copy hidden>Copy</button></div>' +
        "</article>",
    );
    const replayed = (fuzz.replay ?? []).map((r) =>
      r.skipped !== undefined
        ? `<li><code>${t(r.id)}</code>: not sent (${t(r.skipped)})</li>`
        : `<li><code>${t(r.id)}</code>: ${r.stillFails ? "still fails" : "passes now"} (${t(r.status ?? "no answer")})</li>`,
    );
    const restored = (fuzz.restored ?? []).map(
      (r) => `<li><code>${t(r.operationId)} ${t(r.path)}</code>: ${t(r.outcome)}</li>`,
    );
    return [
      '<section id="findings">',
      `<h2>Findings of generated requests (${fuzz.findings.length})</h2>`,
      `<p class="note">Seed ${t(fuzz.seed)}, phases ${t(fuzz.phases.join(", "))}, at most ${t(fuzz.maxExamples)} examples per operation: ${t(fuzz.requests)} requests. Send them again with <code>fuzz --replay report.json</code>.</p>`,
      fuzz.stopped
        ? `<p class="failed"><strong>Stopped early:</strong> ${t(fuzz.stopped)}. What is shown is what was sent before.</p>`
        : "",
      restored.length === 0 ? "" : `<h3>Read before it was changed, then</h3><ul>${restored.join("")}</ul>`,
      items.length === 0 ? "<p>None.</p>" : items.join("\n"),
      replayed.length === 0 ? "" : `<h3>Replayed</h3><ul>${replayed.join("")}</ul>`,
      "</section>",
    ].join("\n");
  }

  deviations(): string {
    const { t } = this;
    const failing = [
      ...this.results.filter((r) => r.status === "failed"),
      ...this.results.filter((r) => r.status === "warned"),
      ...this.results.filter((r) => r.status === "flaky"),
    ];
    const grouped = causes(this.report);
    const byCause =
      grouped.length === 0
        ? ""
        : `<ul class="causes" id="causes">${grouped
            .map(
              (g) =>
                `<li>${t(causeLine(g))}: ${g.ids.map((id) => `<a href="#d-${t(id)}"><code>${t(id)}</code></a>`).join(", ")}</li>`,
            )
            .join("")}</ul>`;
    const body =
      failing.length === 0
        ? "<p>None: every check that ran passed.</p>"
        : failing.map((r) => this.deviation(r)).join("\n");
    return `<section id="deviations">\n<h2>Deviations (<span data-shown-count="article.deviation">${failing.length}</span>)</h2>\n${byCause}\n${body}\n</section>`;
  }

  private deviation(r: ScenarioResult): string {
    const { t } = this;
    return [
      `<article class="deviation ${r.status}" id="d-${this.anchorOf(r)}" data-result="${t(r.id)}" ${this.filterData(r)}>`,
      `<h3><span class="status">${MARK[r.status]} ${r.status}</span> <code>${t(r.id)}</code> <span class="muted">(${t(r.severity)})</span></h3>`,
      `<p>${t(r.title)}. Operation: <code>${t(r.operation)}</code>.</p>`,
      this.reason(r),
      this.curl(r),
      this.evidence(r, true),
      "</article>",
    ].join("\n");
  }

  /** The curl command that sends the request a result failed on again, with a button that copies it. */
  private curl(r: ScenarioResult): string {
    if (typeof r.curl !== "string" || r.curl === "") return "";
    const { t } = this;
    return (
      `<div class="curl"><p class="note">Send the request it failed on again (the token from the environment):</p>` +
      `<pre class="evidence"><code>${t(r.curl)}</code></pre>` +
      `<button type="button" class="copy" data-copy hidden>Copy</button></div>`
    );
  }

  /** A result's reason, repetition collapsed to counts; the whole text is in report.json. */
  private reason(r: ScenarioResult): string {
    if (!r.reason) return "";
    const { t } = this;
    const summary = summariseReason(String(r.reason));
    return summary === r.reason
      ? `<pre class="reason">${t(r.reason)}</pre>`
      : `<pre class="reason" title="repeats collapsed; report.json has the reason as written">${t(summary)}</pre>`;
  }

  /**
   * Whether an exchange is one the result failed on (its `failedOn`), or the answer its request got
   * when sent again (flaky). A report of an older version, without `failedOn`: no answer, a server
   * error, or named in the reason with its status.
   */
  private flagged(r: ScenarioResult, e: Evidence, i: number): boolean {
    if (r.status !== "failed" && r.status !== "warned" && r.status !== "flaky") return false;
    if (Array.isArray(r.failedOn)) return r.failedOn.includes(i) || (r.flaky?.retriedOn ?? []).includes(i);
    if (e.status === null || (typeof e.status === "number" && e.status >= 500)) return true;
    const reason = String(r.reason ?? "");
    return reason.includes(String(e.path)) && new RegExp(`(→|answered) ${e.status}\\b`).test(reason);
  }

  /**
   * A result's exchanges, each as a block the full width of the page: those its reason is about
   * first and marked, the first of them open; the rest behind a count of their statuses. An
   * exchange of another operation than the result's says which.
   */
  private evidence(r: ScenarioResult, open: boolean): string {
    const evidence = r.evidence ?? [];
    if (evidence.length === 0) return '<p class="note">No exchange recorded.</p>';
    const own = new Set(this.operationsOf(r));
    const numbered = evidence.map((e, i) => ({ e, i, flagged: this.flagged(r, e, i) }));
    // What it failed on first, in failedOn's order, then the answers its request got again.
    const rank = (i: number) => {
      const at = [...(r.failedOn ?? []), ...(r.flaky?.retriedOn ?? [])].indexOf(i);
      return at < 0 ? Number.MAX_SAFE_INTEGER : at;
    };
    const flagged = numbered.filter((x) => x.flagged).sort((a, b) => rank(a.i) - rank(b.i));
    const rest = numbered.filter((x) => !x.flagged);
    const others = [
      ...new Set(
        evidence
          .map((e) => operationOfExchange(this.model, e))
          .filter((o): o is string => o !== undefined && own.size > 0 && !own.has(o)),
      ),
    ];
    const statusOf = (e: Evidence) => (e.status === null ? "no answer" : String(e.status));
    const item = (x: { e: Evidence; i: number; flagged: boolean }, first: boolean) =>
      this.exchange(x.e, x.i, x.flagged, open && first, own);
    const parts = [
      `<p class="note">${evidence.length} exchange${evidence.length === 1 ? "" : "s"} (${this.t(countsText(evidence.map(statusOf)))})` +
        `${flagged.length > 0 ? `, ${flagged.length} ${Array.isArray(r.failedOn) ? "it failed on (and sent again)" : "the reason is about"}, first` : ""}; keys and credential headers redacted.</p>`,
      others.length > 0
        ? `<p class="from-other">Evidence from another operation: ${others.map((o) => `<code>${this.t(o)}</code>`).join(", ")}.</p>`
        : "",
      `<div class="exchanges">${flagged.map((x, n) => item(x, n === 0)).join("\n")}</div>`,
    ];
    if (rest.length > 0) {
      const list = rest.map((x, n) => item(x, flagged.length === 0 && n === 0)).join("\n");
      parts.push(
        flagged.length === 0
          ? `<div class="exchanges">${list}</div>`
          : `<details class="more"><summary>${rest.length} other exchange${rest.length === 1 ? "" : "s"} (${this.t(countsText(rest.map((x) => statusOf(x.e))))})</summary><div class="exchanges">${list}</div></details>`,
      );
    }
    return parts.join("\n");
  }

  private exchange(e: Evidence, i: number, flagged: boolean, open: boolean, own: Set<string>): string {
    const { t } = this;
    const f = factsOf(e);
    const operation = operationOfExchange(this.model, e);
    const from = operation !== undefined && own.size > 0 && !own.has(operation) ? operation : undefined;
    const limited = e.status === this.limitedStatus;
    const classes = ["exchange", flagged ? "flagged" : "", limited ? "limited" : "", f.cited ? "cited" : ""]
      .filter(Boolean)
      .join(" ");
    const headers = (h: unknown) => {
      if (!isHeaders(h)) return '<dd class="muted">not recorded</dd>';
      const entries = Object.entries(shownHeaders(h, (x) => x, SHOWN.headers));
      if (entries.length === 0) return '<dd class="muted">none</dd>';
      return `<dd><dl class="headers">${entries.map(([name, value]) => `<dt>${t(name)}</dt><dd>${t(value)}</dd>`).join("")}</dl></dd>`;
    };
    const body = (text: unknown, none: string) =>
      typeof text === "string" && text !== ""
        ? `<dd><pre>${t(cutText(text, SHOWN.body))}</pre></dd>`
        : `<dd class="muted">${none}</dd>`;
    const summary = [
      `<span class="n">#${i + 1}</span>`,
      `<code>${t(e.method)} ${t(e.path)}</code>`,
      `<span class="code">→ ${e.status === null ? "no answer" : t(e.status)}</span>`,
      f.durationMs === undefined ? "" : `<span class="muted">${ms(f.durationMs)}</span>`,
      f.waitedMs ? `<span class="muted">then waited ${ms(f.waitedMs)}</span>` : "",
      f.cited ? '<span class="muted">(cited)</span>' : "",
      from ? `<span class="from">from <code>${t(from)}</code></span>` : "",
    ]
      .filter(Boolean)
      .join(" ");
    return [
      `<details class="${classes}"${open ? " open" : ""}>`,
      `<summary>${summary}</summary>`,
      '<dl class="exchange-facts">',
      `<dt>Request headers</dt>${headers(e.requestHeaders)}`,
      `<dt>Request body</dt>${body(e.requestBody, isHeaders(e.requestHeaders) ? "none" : "not recorded")}`,
      f.contentType === undefined ? "" : `<dt>Content-Type</dt><dd><code>${t(f.contentType)}</code></dd>`,
      `<dt>Answer headers</dt>${headers(e.responseHeaders)}`,
      `<dt>Answer (excerpt)</dt>${body(e.excerpt, "empty")}`,
      "</dl>",
      "</details>",
    ].join("");
  }

  operations(): string {
    const { t } = this;
    const rows = new Map<string, Map<string, Chip[]>>();
    const groups: string[] = [];
    for (const result of this.results) {
      const named = this.operationsOf(result);
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
    // What failed comes first, down and across: its cell is in the grid's first row and column.
    const worst = (chips: Chip[]) =>
      Math.min(URGENCY.length, ...chips.map((c) => URGENCY.indexOf(c.result.status)).filter((i) => i < 2));
    const rank = (chips: Chip[]) => worst(chips);
    const columns = [...groups].sort(
      (a, b) =>
        rank([...rows.values()].flatMap((cells) => cells.get(a) ?? [])) -
        rank([...rows.values()].flatMap((cells) => cells.get(b) ?? [])),
    );
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
        ? `<code>${wordBreakable(t(spec.operationId))}</code><span class="op-path">${t(spec.method.toUpperCase())} ${breakable(t(spec.path))}</span>`
        : t(operation);
      return [
        `<tr class="operation${touched.length === 0 ? " untouched" : ""}" id="op-${t(operation)}" data-operation="${t(operation)}">`,
        `<th scope="row">${name}<span class="tally">${tally || '<span class="muted">no check ran</span>'}</span></th>`,
        ...columns.map((group) => {
          const chips = cells?.get(group) ?? [];
          if (chips.length === 0) return '<td class="empty"><span class="muted">—</span></td>';
          const ordered = [...chips].sort(
            (a, b) => URGENCY.indexOf(a.result.status) - URGENCY.indexOf(b.result.status),
          );
          return `<td><div class="chips">${ordered.map((c) => this.chip(c.result, c.label, operation)).join("")}</div></td>`;
        }),
        "</tr>",
      ].join("");
    };
    const ordered = [
      ...this.model.operations.map((o) => ({ id: o.operationId, spec: o as OperationModel | undefined })),
      ...(rows.has(ELSEWHERE) ? [{ id: ELSEWHERE, spec: undefined }] : []),
    ].sort(
      (a, b) =>
        rank([...(rows.get(a.id)?.values() ?? [])].flat()) -
        rank([...(rows.get(b.id)?.values() ?? [])].flat()),
    );
    return [
      '<section id="operations">',
      "<h2>Operations × checks</h2>",
      `<p class="note">Every operation of the spec, and the result of every check on it, grouped by the check's first name; operations and groups with a failure first, then those with a warning. ${this.legend()} A result links to its details. The grid scrolls sideways in its box; the operations stay in view.</p>`,
      '<div class="grid" tabindex="0" role="region" aria-label="Operations × checks">',
      '<table class="matrix">',
      `<thead><tr><th scope="col">Operation</th>${columns.map((g) => `<th scope="col">${t(g)}</th>`).join("")}</tr></thead>`,
      `<tbody>${ordered.map((o) => row(o.id, o.spec)).join("\n")}</tbody>`,
      "</table></div>",
      "</section>",
    ].join("\n");
  }

  private legend(): string {
    return STATUSES.map((s) => `<span class="status ${s}">${MARK[s]} ${WORD[s]}</span>`).join(" ");
  }

  private chip(result: ScenarioResult, label: string, operation: string): string {
    const { t } = this;
    const deviates = result.status === "failed" || result.status === "warned" || result.status === "flaky";
    return (
      `<a class="chip ${result.status}" href="#${deviates ? "d" : "r"}-${this.anchorOf(result)}" data-result="${t(result.id)}" ` +
      `${this.filterData(result, [operation])} title="${t(result.id)}: ${WORD[result.status]} (${t(result.severity)})">` +
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

  /**
   * Where the run's time went: every 429 answer and the wait after it, and the slowest calls. (The
   * bar chart it replaces had no axis, cut labels and a row per result that sent nothing.)
   */
  timeline(): string {
    const own = this.exchanges.filter((e) => !e.facts.cited);
    return [
      '<section id="timeline">',
      "<h2>Where the time went, waits and slowest calls</h2>",
      timeSection(this.report, this.t, (value) => seconds(value)),
      `<p class="note">An exchange one result cites from another is counted where it was made.</p>`,
      this.waits(own),
      this.slowest(own),
      "</section>",
    ].join("\n");
  }

  /** Every answer the suite waited after (a 5xx, no answer) and every 429, by result, and the waits. */
  private waits(own: Exchange[]): string {
    const limited = this.limitedStatus;
    // A cited exchange no result made itself (the discovery's) is counted where it is cited, once.
    const ownKeys = new Set(own.map(sameExchange));
    const made = new Set(ownKeys);
    const waitedOn = [...own];
    for (const e of this.exchanges)
      if (e.facts.cited && e.facts.waitedMs && !made.has(sameExchange(e))) {
        made.add(sameExchange(e));
        waitedOn.push(e);
      }
    // Every answer the suite waited after (a 5xx, no answer), and every 429 whether or not it did.
    const hitsOf = (r: ScenarioResult) =>
      waitedOn.filter(
        (e) => e.result === r && (e.evidence.status === limited || (e.facts.waitedMs ?? 0) > 0),
      );
    const timed = own.some((e) => e.facts.at !== undefined);
    const waits = this.results.filter((r) => hitsOf(r).length > 0);
    const requestTimes = [
      ...own,
      // A set of keys, not a search of `own` for each cited exchange (quadratic in the exchanges).
      ...this.exchanges.filter((e) => e.facts.cited && !ownKeys.has(sameExchange(e))),
    ]
      .map((e) => e.facts.at)
      .filter((at): at is number => at !== undefined)
      .sort((a, b) => a - b);
    const waitRows = waits.map((r) => this.waitRow(r, hitsOf(r), requestTimes, timed));
    // The run's account counts every wait; a result's evidence holds only its own exchanges.
    const listed = waitedOn.filter((e) => (e.facts.waitedMs ?? 0) > 0).length;
    const counted = Array.isArray(this.report.time?.waits)
      ? this.report.time.waits.reduce((n, w) => n + (w.reason === "pacing" ? 0 : Number(w.count) || 0), 0)
      : undefined;
    const elsewhere =
      counted !== undefined && counted > listed
        ? `<p class="note" id="waits-elsewhere">${counted} waits before a retry in the run, ${listed} of them in a result's evidence (listed below); the others followed exchanges no result shows (the drivers', a step's).</p>`
        : "";
    if (waits.length === 0 && elsewhere) return elsewhere;
    if (waits.length === 0)
      return `<p id="no-waits">No answer in this run was ${limited} (the spec's status for a request over the rate limit), and the suite retried none after a wait: nothing waited.</p>`;
    return [
      `<h3>Answers waited after: ${limited}, 5xx, no answer</h3>`,
      `<p class="note">After a ${limited} the suite waits for its Retry-After (without one, the rate's period) before it sends again, unless the result wanted the ${limited} itself; after a 5xx or no answer it waits before a retry too.</p>`,
      elsewhere,
      '<div class="scroll"><table class="waits cards">',
      `<thead><tr><th>Result</th><th>Answers (status)</th><th>Retry-After</th><th>Waited before retrying</th><th>Next request of the run after the last</th></tr></thead>`,
      `<tbody>${waitRows.join("\n")}</tbody>`,
      "</table></div>",
    ].join("\n");
  }

  /** A result's answers waited after: their statuses, the Retry-After they advised, the waits, the next request. */
  private waitRow(r: ScenarioResult, hits: Exchange[], requestTimes: number[], timed: boolean): string {
    const { t } = this;
    const notRecorded = '<span class="muted">not recorded</span>';
    const waited = hits.map((e) => e.facts.waitedMs).filter((v): v is number => v !== undefined);
    // The next request anyone sent after the last 429 answer: how long the run held back.
    const last = hits.at(-1);
    const answered = last?.facts.at === undefined ? undefined : last.facts.at + (last.facts.durationMs ?? 0);
    const next = answered === undefined ? undefined : requestTimes.find((at) => at >= answered);
    const advised = [
      ...new Set(
        hits
          .map((e) =>
            isHeaders(e.evidence.responseHeaders) ? e.evidence.responseHeaders["retry-after"] : undefined,
          )
          .filter((v): v is string => typeof v === "string"),
      ),
    ];
    return [
      `<tr class="wait" data-result="${t(r.id)}">`,
      `<th scope="row" data-label="Result"><a href="#r-${this.anchorOf(r)}"><code>${t(r.id)}</code></a></th>`,
      `<td class="num" data-label="Answers">${hits.length} <span class="muted">(${t(
        [...new Set(hits.map((e) => e.evidence.status ?? "no answer"))].join(", "),
      )})</span></td>`,
      `<td data-label="Retry-After">${advised.length > 0 ? t(advised.join(", ")) : notRecorded}</td>`,
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
      "</tr>",
    ].join("");
  }

  /** The SLOWEST calls the results' own exchanges record, each with the results it is evidence of. */
  private slowest(own: Exchange[]): string {
    const { t } = this;
    // One exchange judged by several rules is in each one's evidence: listed once, with each of them.
    const distinct = new Map<string, { exchange: Exchange; by: ScenarioResult[] }>();
    for (const e of own) {
      if (e.facts.durationMs === undefined || e.evidence.status === null) continue;
      const same = sameExchange(e);
      // A result holds an exchange once: a second alike in one result is another exchange.
      let n = 0;
      while (distinct.get(`${same} ${n}`)?.by.includes(e.result)) n++;
      const seen = distinct.get(`${same} ${n}`);
      if (seen) seen.by.push(e.result);
      else distinct.set(`${same} ${n}`, { exchange: e, by: [e.result] });
    }
    const slowest = [...distinct.values()]
      .sort((a, b) => (b.exchange.facts.durationMs ?? 0) - (a.exchange.facts.durationMs ?? 0))
      .slice(0, SLOWEST);
    const started = Date.parse(this.report.startedAt);
    if (slowest.length === 0)
      return '<p class="note">No exchange of this report records how long it took.</p>';
    return [
      `<h3>The ${slowest.length} slowest calls</h3>`,
      '<div class="scroll"><table class="slowest cards">',
      "<thead><tr><th>Took</th><th>Request</th><th>Status</th><th>Sent at</th><th>Evidence of</th></tr></thead>",
      `<tbody>${slowest
        .map(
          ({ exchange: e, by }) =>
            `<tr class="slow"><td class="num" data-label="Took">${ms(e.facts.durationMs)}</td>` +
            `<td data-label="Request"><code>${t(e.evidence.method)} ${t(e.evidence.path)}</code></td>` +
            `<td class="num" data-label="Status">${t(e.evidence.status)}</td>` +
            `<td class="num" data-label="Sent at">${e.facts.at === undefined || Number.isNaN(started) ? "—" : `+${seconds(e.facts.at - started)}`}</td>` +
            `<td data-label="Evidence of">${by.map((r) => `<a href="#r-${this.anchorOf(r)}"><code>${t(r.id)}</code></a>`).join(", ")}</td></tr>`,
        )
        .join("\n")}</tbody>`,
      "</table></div>",
    ].join("\n");
  }

  allResults(): string {
    const { t } = this;
    const order = [...this.results].sort((a, b) => URGENCY.indexOf(a.status) - URGENCY.indexOf(b.status));
    const items = order.map((r) => {
      const evidence = r.evidence ?? [];
      return [
        `<article class="result ${r.status}" id="r-${this.anchorOf(r)}" data-result="${t(r.id)}" ${this.filterData(r)}>`,
        `<h3><span class="status">${MARK[r.status]} ${WORD[r.status]}</span> <code>${t(r.id)}</code> <span class="muted">(${t(r.severity)}) · <code>${t(r.operation)}</code> · ${ms(r.durationMs)}</span></h3>`,
        `<p class="title">${t(r.title)}</p>`,
        this.reason(r),
        evidence.length > 0
          ? `<details class="evidence"><summary>${evidence.length} exchange${evidence.length === 1 ? "" : "s"}</summary>${this.evidence(r, false)}</details>`
          : "",
        "</article>",
      ].join("\n");
    });
    return [
      '<section id="results">',
      `<h2>All results (${this.results.length})</h2>`,
      '<p class="note">Failures first, then warnings, skips and passes.</p>',
      items.join("\n"),
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

/** What tells one exchange from another in the evidence: its request, status, start and length. */
const sameExchange = (e: Exchange) =>
  `${e.evidence.method} ${e.evidence.path} ${e.evidence.status} ${e.facts.at} ${e.facts.durationMs}`;

function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return "—";
  return value >= 10_000 ? seconds(value) : `${Math.round(value)} ms`;
}

function seconds(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? "—" : `${(value / 1000).toFixed(1)} s`;
}

function isHeaders(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string")
  );
}

/** An escaped path that may wrap after each slash (never inside a segment's name). */
function breakable(escapedPath: string): string {
  return escapedPath.replace(/\//g, "/<wbr>");
}

/** An operationId may wrap between its words (checkVirtualGpu|ClusterLimits), never inside one; only a plain identifier, so no entity of the escaping is split. */
function wordBreakable(escapedId: string): string {
  return /^[A-Za-z0-9_]+$/.test(escapedId) ? escapedId.replace(/([a-z0-9])(?=[A-Z])/g, "$1<wbr>") : escapedId;
}
