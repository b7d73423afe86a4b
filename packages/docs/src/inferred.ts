// The description requires some fields only because the platform's documentation lists them
// (`x-inferred-required`); Redoc shows them as required like any other. The reference says so once
// per operation, naming the fields: said on each field, the same sentence filled the page (43
// times on the reference, 30 of them on one operation). Each such field keeps a short mark, so the
// required label beside it is read with the paragraph.
import { INFERRED_REQUIRED } from "@platform-api/spec";
import { appendInline } from "./descriptions.js";
import { escapeHtml } from "./layout.js";
import { isObject, type Json, listOperations } from "./operations.js";
import { bodySchemas } from "./schema-walk.js";

export const INFERRED_MARK = "inferred";
export const INFERRED_REQUIRED_HEADING = "Required here by inference:";
// Not the heading's words: said once per operation, they are what a reader (and a test) counts.
const MARK_TITLE = "Required only by inference: see the note at the top of the operation.";
/** Past this many names the paragraph folds its list: each field carries its mark anyway. */
const FOLD_AFTER = 8;

const inferredNames = (schema: Json): string[] => {
  const names = schema[INFERRED_REQUIRED];
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
};

/** The mark after an inferred field's description: a word, its meaning on hover and in the operation's paragraph. */
export const inferredMarkHtml = () =>
  `<span class="inferred-mark" title="${escapeHtml(MARK_TITLE)}">${INFERRED_MARK}</span>`;

/** Each operation's fields required only by inference, by body ("200 answer"), as field paths. */
export function inferredFields(doc: Json, operation: Json): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { schema, body, prefix } of bodySchemas(doc, operation)) {
    const names = inferredNames(schema);
    if (names.length === 0) continue;
    const list = found.get(body) ?? [];
    for (const name of names) if (!list.includes(`${prefix}${name}`)) list.push(`${prefix}${name}`);
    found.set(body, list);
  }
  return found;
}

/** The paragraph of one operation, or undefined when it has no field required by inference. */
export function inferredParagraphHtml(fields: Map<string, string[]>): string | undefined {
  if (fields.size === 0) return undefined;
  const count = [...fields.values()].reduce((n, names) => n + names.length, 0);
  const where = [...fields]
    .map(
      ([body, names]) =>
        `in the ${escapeHtml(body)}, ${names.map((n) => `<code>${escapeHtml(n)}</code>`).join(", ")}`,
    )
    .join("; ");
  const intro = `<strong>${INFERRED_REQUIRED_HEADING}</strong> the platform's documentation lists ${count === 1 ? "this field" : "these fields"} without saying ${count === 1 ? "it is" : "they are"} always present, and this description requires ${count === 1 ? "it" : "them"} (marked ${inferredMarkHtml()})`;
  return count > FOLD_AFTER
    ? `<details class="inferred-note"><summary>${intro}: ${count} fields.</summary><p>${where}.</p></details>`
    : `<p class="inferred-note">${intro}: ${where}.</p>`;
}

/**
 * Marks every field required only by inference (doc changed in place); answers, by operationId,
 * the paragraph naming those an operation shows, for its description (reference.ts places it).
 */
export function markInferredRequired(doc: Json): Map<string, string> {
  const paragraphs = new Map<string, string>();
  for (const op of listOperations(doc)) {
    const html = inferredParagraphHtml(inferredFields(doc, op.node));
    if (html) paragraphs.set(op.operationId, html);
  }
  const marked = new Set<Json>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isObject(node)) return;
    if (isObject(node.properties))
      for (const name of inferredNames(node)) {
        const property = node.properties[name];
        if (!isObject(property) || marked.has(property)) continue;
        marked.add(property);
        appendInline(property, inferredMarkHtml());
      }
    for (const child of Object.values(node)) visit(child);
  };
  visit(doc);
  return paragraphs;
}
