// Adding to what Redoc shows of a node: its description, Markdown with HTML passed through.
import type { Json } from "./operations.js";

/** Appends a block of HTML as a paragraph of its own at the end of a node's description. */
export function appendBlock(node: Json, html: string): void {
  const description = typeof node.description === "string" ? node.description.trimEnd() : "";
  node.description = `${description}${description ? "\n\n" : ""}${html}`;
}

/**
 * Appends inline HTML to the last line of a node's description, so a mark costs no line of its
 * own; after a line Markdown would not read as a paragraph (a list, a table, a block of HTML or
 * code), it takes a paragraph of its own.
 */
export function appendInline(node: Json, html: string): void {
  const description = typeof node.description === "string" ? node.description.trimEnd() : "";
  const last = description.split("\n").at(-1) ?? "";
  const paragraph =
    last !== "" &&
    !/^\s*([-*+>|`~#]|\d+[.)]\s|\s{4})/.test(last) &&
    !/^\s*<\/?(div|p|ul|ol|li|table|details|pre|h\d|blockquote)\b/i.test(last);
  node.description = paragraph
    ? `${description} ${html}`
    : `${description}${description ? "\n\n" : ""}${html}`;
}
