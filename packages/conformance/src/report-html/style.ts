// The HTML report's one stylesheet, inlined in the page (the report opens offline, from a file).
// Narrow screens get every table as stacked cards, each cell labelled by its column.

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
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.muted, .note { color: var(--muted); }
.note { font-size: 0.9em; }
.verdict { display: flex; flex-wrap: wrap; align-items: baseline; gap: 8px 16px; padding: 12px 16px; border-radius: 8px;
  border: 2px solid var(--pass); background: var(--panel); margin: 8px 0 16px; }
.verdict.not-conformant { border-color: var(--fail); }
.verdict strong { font-size: 1.6rem; letter-spacing: 0.02em; color: var(--pass); }
.verdict.not-conformant strong { color: var(--fail); }
.counts { display: flex; flex-wrap: wrap; gap: 4px 12px; margin: 0; padding: 0; list-style: none; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); }
th { background: var(--panel); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.status { font-weight: 600; white-space: nowrap; }
.passed .status, .status.passed, .chip.passed { color: var(--pass); }
.failed .status, .status.failed, .chip.failed { color: var(--fail); }
.warned .status, .status.warned, .chip.warned { color: var(--warn); }
.skipped .status, .status.skipped, .chip.skipped { color: var(--skip); }
.chips { display: flex; flex-wrap: wrap; gap: 4px; }
.chip { display: inline-block; border: 1px solid currentColor; border-radius: 10px; padding: 0 6px; font-size: 0.82em;
  text-decoration: none; white-space: nowrap; }
.chip.failed { font-weight: 700; }
tr.untouched th { color: var(--muted); }
.op-path { display: block; color: var(--muted); font-weight: 400; font-size: 0.85em; }
.deviation { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; padding: 8px 12px; margin: 12px 0; }
.deviation.warned { border-left-color: var(--warn); }
.reason { background: var(--panel); padding: 6px 8px; border-radius: 4px; margin: 6px 0; }
.evidence pre { min-width: 16em; }
.evidence tr.limited td { color: var(--limit); }
.evidence-list { max-height: 32em; overflow: auto; }
details > summary { cursor: pointer; }
.timeline { list-style: none; margin: 0; padding: 0; }
.timeline li { display: grid; grid-template-columns: minmax(8em, 22em) 1fr; gap: 8px; align-items: center; font-size: 0.82em; }
.timeline .label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.timeline .track { position: relative; height: 12px; background: var(--panel); border-radius: 2px; }
.timeline .bar { position: absolute; top: 1px; bottom: 1px; min-width: 2px; border-radius: 2px; background: var(--pass); }
.timeline .failed .bar { background: var(--fail); }
.timeline .warned .bar { background: var(--warn); }
.timeline .skipped .bar { background: var(--skip); }
.timeline .hit { position: absolute; top: -2px; bottom: -2px; width: 3px; margin-left: -1px; background: var(--limit); }
.timeline .wait { position: absolute; top: 3px; bottom: 3px; min-width: 2px;
  background: repeating-linear-gradient(45deg, var(--limit) 0 3px, transparent 3px 6px); border: 1px solid var(--limit); }
.timeline .limited .label { color: var(--limit); font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 0.85em; margin: 4px 0 8px; padding: 0; list-style: none; }
.swatch { display: inline-block; width: 1em; height: 0.7em; border-radius: 2px; margin-right: 4px; vertical-align: middle; }
.swatch.hit { width: 3px; background: var(--limit); }
.swatch.wait { background: repeating-linear-gradient(45deg, var(--limit) 0 3px, transparent 3px 5px); border: 1px solid var(--limit); }
.filter { margin: 8px 0; }
#only-deviations:checked ~ .scroll tr.result.passed, #only-deviations:checked ~ .scroll tr.result.skipped { display: none; }
@media (max-width: 720px) {
  main { padding: 10px; }
  table.cards, table.cards tbody, table.cards tr, table.cards th, table.cards td { display: block; width: 100%; }
  table.cards thead { display: none; }
  table.cards tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 10px; padding: 4px 0; }
  table.cards th, table.cards td { border: 0; padding: 2px 10px; text-align: left; }
  table.cards td::before { content: attr(data-label); display: block; color: var(--muted); font-size: 0.8em; }
  table.cards td.empty { display: none; }
  table.cards td.num { text-align: left; }
  table.cards td.num::before { display: inline; margin-right: 6px; }
  .timeline li { grid-template-columns: 1fr; gap: 0; margin-bottom: 4px; }
}
`;
