// Text from a run in report.md. A target's answers and a HAR's entries reach it (reasons, paths,
// excerpts, methods, ids), and Markdown renderers pass raw HTML through: a `<script>` in a reason
// would run where the file is shown. Outside code spans `&`, `<` and `>` become character
// references and Markdown's inline punctuation is backslash-escaped, so the text shows as written;
// a code span is fenced by more backticks than it holds. In a table a line break is a space and
// `|` is escaped, so a cell stays one cell. Invisible characters show as escapes (src/shared/controls.ts).

import { showControls } from "./controls.js";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
/** What makes emphasis, links, images, code spans, strike-through, table cells, or escapes itself. */
const INLINE = /[\\`*_[\]|~]/g;

/** Inline text, shown as written; line breaks stay, as \n (`table`: they become spaces). */
export function mdText(text: string, table = false): string {
  const flat = table ? text.replace(/\s+/g, " ") : text.replace(/\r\n?/g, "\n");
  return showControls(flat, "\n\t")
    .replace(/[&<>]/g, (c) => ENTITIES[c] ?? c)
    .replace(INLINE, (c) => `\\${c}`);
}

/** A code span holding the text as written (`table`: one cell of a table row). */
export function mdCode(text: string, table = false): string {
  let code = showControls(text.replace(/\s+/g, " "), "");
  if (table) code = code.replace(/\|/g, "\\|");
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  // A span that starts or ends with a backtick (or a space) needs a space inside its fence.
  const pad = /^[` ]|[` ]$/.test(code) ? " " : "";
  return `${fence}${pad}${code}${pad}${fence}`;
}
