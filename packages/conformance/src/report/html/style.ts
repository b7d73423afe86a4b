// The HTML report's one stylesheet, inlined in the page (the report opens offline, from a file).
// No part of the page is wider than the screen: the operations × checks grid scrolls in its own
// box with the operations column held in view, and an exchange takes the full width as a list of
// facts. Narrow screens get the other tables as stacked cards, each cell labelled by its column.

export const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #5b6470; --bg: #fff; --panel: #f5f7f9; --line: #d8dde3;
  --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --skip: #6e7781; --limit: #8250df; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9da7b3; --bg: #0d1117; --panel: #161b22;
  --line: #30363d; --pass: #3fb950; --fail: #f85149; --warn: #d29922; --skip: #8b949e; --limit: #a371f7; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1200px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; }
h2 { font-size: 1.2rem; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 1rem; margin: 0 0 4px; overflow-wrap: anywhere; }
section > h3 { margin-top: 16px; }
p, li { overflow-wrap: anywhere; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.86em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
a { color: inherit; }
[hidden] { display: none !important; }
/* Positioned within its own box: placed by the page, an off-screen label would widen the page. */
.sr { position: absolute; left: 0; top: 0; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.muted, .note { color: var(--muted); }
.note { font-size: 0.9em; }
.verdict { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 16px; padding: 12px 16px; border-radius: 8px;
  border: 2px solid var(--pass); background: var(--panel); margin: 8px 0 16px; }
.verdict.not-conformant { border-color: var(--fail); }
.verdict.thin { border-color: var(--warn); border-style: dashed; }
.verdict strong { font-size: 1.6rem; letter-spacing: 0.02em; color: var(--pass); }
.verdict.not-conformant strong { color: var(--fail); }
.verdict.thin strong { color: var(--warn); font-size: 1.3rem; }
.verdict .qualifier { margin: 0; flex-basis: 100%; font-weight: 600; }
.verdict .skips { flex-basis: 100%; }
.verdict .skips ul { margin: 4px 0; padding-left: 1.2em; }
.count { font-variant-numeric: tabular-nums; font-weight: 600; }
.filters { display: flex; flex-wrap: wrap; gap: 6px 16px; align-items: center; padding: 8px 12px; margin: 0 0 8px;
  border: 1px solid var(--line); border-radius: 8px; background: var(--panel); }
.filters fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 12px; }
.filters legend { float: left; margin-right: 8px; color: var(--muted); }
.filters select, .filters input[type=search] { font: inherit; max-width: 100%; }
.filters label { max-width: 100%; }
/* The operations column is held in view at a fixed width; scrolling to a cell keeps it clear of it. */
.grid { --op: 16em; position: relative; overflow: auto; max-width: 100%; max-height: 85vh; border: 1px solid var(--line);
  border-radius: 6px; scroll-padding-left: var(--op); }
table.matrix thead th { position: sticky; top: 0; z-index: 2; }
table.matrix th:first-child { position: sticky; left: 0; z-index: 1; width: var(--op); min-width: var(--op); max-width: var(--op);
  box-shadow: 1px 0 0 var(--line); overflow-wrap: anywhere; }
table.matrix thead th:first-child { left: 0; z-index: 3; }
/* Each check column as wide as its widest chip, so no chip is cut by the next column; the box scrolls. */
table.matrix { width: max-content; min-width: 100%; }
table.matrix td { min-width: 6em; }
table.matrix .chips { flex-direction: column; align-items: flex-start; }
.tally { display: block; font-weight: 400; font-size: 0.85em; }
.exchanges { display: flex; flex-direction: column; gap: 6px; margin: 6px 0; }
details.exchange { border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; }
details.exchange > summary { overflow-wrap: anywhere; }
details.exchange.flagged { border-left: 4px solid var(--fail); }
details.exchange.limited > summary .code { color: var(--limit); font-weight: 600; }
details.exchange.flagged > summary .code { color: var(--fail); font-weight: 600; }
.exchange-facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 4px 12px; margin: 6px 0 2px; }
.exchange-facts > dt { color: var(--muted); }
.exchange-facts > dd { margin: 0; min-width: 0; }
.exchange-facts pre { background: var(--panel); padding: 4px 6px; border-radius: 4px; }
dl.headers { display: grid; grid-template-columns: minmax(6em, max-content) minmax(0, 1fr); gap: 0 10px; margin: 0;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.84em; }
dl.headers dt { color: var(--muted); overflow-wrap: anywhere; }
dl.headers dd { margin: 0; overflow-wrap: anywhere; }
.from-other, .from { color: var(--warn); }
details.more > summary { color: var(--muted); }
article.result { border-bottom: 1px solid var(--line); padding: 6px 0; }
article.result h3 .muted { font-weight: 400; }
article.result .title { margin: 0; }
.counts { display: flex; flex-wrap: wrap; gap: 4px 12px; margin: 0; padding: 0; list-style: none; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.scroll { position: relative; overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--panel); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.status { font-weight: 600; white-space: nowrap; }
.passed .status, .status.passed, .chip.passed { color: var(--pass); }
.failed .status, .status.failed, .chip.failed { color: var(--fail); }
.warned .status, .status.warned, .chip.warned { color: var(--warn); }
.skipped .status, .status.skipped, .chip.skipped { color: var(--skip); }
.flaky .status, .status.flaky, .chip.flaky { color: var(--warn); font-style: italic; }
.chips { display: flex; flex-wrap: wrap; gap: 4px; }
.chip { display: inline-block; border: 1px solid currentColor; border-radius: 10px; padding: 0 6px; font-size: 0.82em;
  text-decoration: none; white-space: nowrap; }
.chip.failed { font-weight: 700; }
tr.untouched th { color: var(--muted); }
.op-path { display: block; color: var(--muted); font-weight: 400; font-size: 0.85em; }
.deviation { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; padding: 8px 12px; margin: 12px 0; }
.deviation.warned { border-left-color: var(--warn); }
.deviation.flaky { border-left-color: var(--warn); border-left-style: dashed; }
.curl { position: relative; }
.curl button.copy { position: absolute; top: 4px; right: 4px; }
.causes li { margin: 2px 0; }
.reason { background: var(--panel); padding: 6px 8px; border-radius: 4px; margin: 6px 0; }
details > summary { cursor: pointer; }
@media (max-width: 720px) {
  main { padding: 10px; }
  .grid { --op: 8.5em; }
  table.matrix .op-path { display: none; }
  .exchange-facts { grid-template-columns: minmax(0, 1fr); gap: 0; }
  .exchange-facts > dd { margin-bottom: 6px; }
  table.cards, table.cards tbody, table.cards tr, table.cards th, table.cards td { display: block; width: 100%; }
  table.cards thead { display: none; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 10px; padding: 4px 0; }
  table.cards th, table.cards td { border: 0; padding: 2px 10px; text-align: left; }
  table.cards td::before { content: attr(data-label); display: block; color: var(--muted); font-size: 0.8em; }
  table.cards td.empty { display: none; }
  table.cards td.num { text-align: left; }
  table.cards td.num::before { display: inline; margin-right: 6px; }
}
`;
