// What the platform's own published descriptions document beyond the seed (spec/platform-facts.yaml),
// shown on each operation of the reference as a note of its own: the description stays the seed,
// and a reader calling the live platform sees what its clients may send and what it may answer.
// Only facts where the seed is silent are shown; where the two disagree the description (the seed)
// is what the reference documents, and spec/README.md lists the disagreements. The operations the
// platform documents and the description does not describe at all (the record's extensions) have no
// operation to carry a note: they get a section of the reference's introduction of their own.
import { EXTENSION_HEADER } from "@platform-api/simulator";
import {
  type PlatformExtension,
  type PlatformFact,
  type PlatformFactSource,
  type PlatformFacts,
  platformFacts,
} from "@platform-api/spec";
import { escapeHtml } from "./layout.js";
import { isObject, type Json, listOperations } from "./operations.js";

/** A fact's schema in a few words: type, values, bounds, default, format. */
function schemaWords(schema: unknown): string {
  if (!isObject(schema)) return "";
  const items = isObject(schema.items) ? schema.items : undefined;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type;
  const words = [
    type === "array" && items ? `array of ${schemaWords(items)}` : type === undefined ? "" : String(type),
    Array.isArray(schema.enum)
      ? `one of ${schema.enum.map((v) => `<code>${escapeHtml(String(v))}</code>`).join(", ")}`
      : "",
    schema.format === undefined ? "" : `format ${escapeHtml(String(schema.format))}`,
    schema.minimum === undefined ? "" : `at least ${schema.minimum}`,
    schema.exclusiveMinimum === undefined ? "" : `above ${schema.exclusiveMinimum}`,
    schema.maximum === undefined ? "" : `at most ${schema.maximum}`,
    schema.default === undefined ? "" : `default <code>${escapeHtml(String(schema.default))}</code>`,
  ];
  return words.filter(Boolean).join(", ");
}

/** One fact as a list item of HTML. */
function factHtml(fact: PlatformFact): string {
  const described = fact.schema === undefined ? "" : schemaWords(fact.schema);
  const tail = described ? `: ${described}` : "";
  if (fact.kind === "parameter") {
    const how = [fact.repeatable ? "repeatable (once per value)" : "", fact.deprecated ? "deprecated" : ""]
      .filter(Boolean)
      .join(", ");
    return `<li>${fact.in} parameter <code>${escapeHtml(fact.name)}</code>${tail}${how ? `; ${how}` : ""}</li>`;
  }
  if (fact.kind === "status") return `<li>status <code>${escapeHtml(fact.status)}</code></li>`;
  const where =
    fact.at === "request" ? "request field" : `field of the ${escapeHtml(fact.status ?? "")} answer`;
  return `<li>${where} <code>${escapeHtml(fact.field)}</code>${tail}${fact.required ? "; required" : ""}</li>`;
}

/** The note for one operation's facts, or undefined when it has none the seed leaves open. */
export function platformFactsHtml(facts: readonly PlatformFact[], record: PlatformFacts): string | undefined {
  const silent = facts.filter((f) => f.seed === "silent");
  if (silent.length === 0) return undefined;
  const sources = record.sources
    .filter((s) => silent.some((f) => f.source.repository === s.repository))
    .map((s) => `${escapeHtml(s.repository)} at <code>${s.commit.slice(0, 12)}</code>`)
    .join(", ");
  return `<div class="platform-note" role="note"><strong>Documented by the platform, not by this description:</strong><ul>${silent.map(factHtml).join("")}</ul><span>From the platform's published descriptions (${sources}); see <code>spec/platform-facts.yaml</code>.</span></div>`;
}

/** Appends each operation's note to its description (doc changed in place); answers the operations noted. */
export function markPlatformFacts(doc: Json, record: PlatformFacts = platformFacts()): string[] {
  const noted: string[] = [];
  for (const op of listOperations(doc)) {
    const html = platformFactsHtml(record.operations[op.operationId] ?? [], record);
    if (!html) continue;
    const description = typeof op.node.description === "string" ? op.node.description.trimEnd() : "";
    op.node.description = `${description}${description ? "\n\n" : ""}${html}`;
    noted.push(op.operationId);
  }
  return noted;
}

/** The title of the reference's section on the record's extensions, a heading of its introduction. */
export const EXTENSIONS_TITLE = "Documented by the platform, not by this description";

// Record text goes into one HTML block of Markdown: a blank line would end the block and hand the
// rest to Markdown, so runs of white space become one space before escaping.
const text = (s: string) => escapeHtml(s.replace(/\s+/g, " "));

function sourceHtml(source: PlatformFactSource): string {
  const where =
    source.pointer !== undefined
      ? `, <code>${text(source.pointer)}</code>`
      : source.line !== undefined
        ? `, line ${source.line}`
        : "";
  return `${text(source.repository)}, <code>${text(source.path)}</code> at commit <code>${text(source.commit)}</code>${where}`;
}

/** One extension: what the platform documents of it, that the simulator serves it, and where it is read from. */
function extensionHtml(extension: PlatformExtension, header: string): string {
  const operation = `${extension.method.toUpperCase()} ${extension.path}`;
  const parameters = (extension.parameters ?? [])
    .map((p) => {
      const described = schemaWords(p.schema);
      return `<li>${p.in} parameter <code>${text(p.name)}</code>${described ? `: ${described}` : ""}${p.required ? "; required" : ""}</li>`;
    })
    .join("");
  const statuses = extension.statuses.map((s) => `<code>${text(s)}</code>`).join(", ");
  const answers = [...new Set(extension.fields.map((f) => f.status))]
    .map((status) => {
      const fields = extension.fields
        .filter((f) => f.status === status)
        .map((f) => {
          const described = schemaWords(f.schema);
          return `<li><code>${text(f.field)}</code>${described ? `: ${described}` : ""}${f.required ? "; required" : ""}</li>`;
        })
        .join("");
      return `<p>Fields of its <code>${text(status)}</code> answer:</p><ul>${fields}</ul>`;
    })
    .join("");
  const sources = [
    `<li>the operation: ${sourceHtml(extension.source)}</li>`,
    extension.fieldsSource ? `<li>its answer's fields: ${sourceHtml(extension.fieldsSource)}</li>` : "",
    ...(extension.confirmedBy ?? []).map((s) => `<li>confirmed by ${sourceHtml(s)}</li>`),
  ].join("");
  return [
    `<div class="platform-extension" id="platform-extension-${text(extension.id)}">`,
    `<p><strong><code>${text(operation)}</code></strong>: the platform's operation <code>${text(extension.platformOperationId)}</code>.</p>`,
    extension.note ? `<p>${text(extension.note)}</p>` : "",
    parameters ? `<p>Parameters:</p><ul>${parameters}</ul>` : "",
    `<p>Statuses the platform documents: ${statuses}.</p>`,
    answers,
    `<p>The simulator serves it, outside the description: every answer it gives there carries the header <code>${text(header)}: ${text(extension.id)}</code>.</p>`,
    `<p>Read from:</p><ul>${sources}</ul>`,
    "</div>",
  ].join("");
}

/**
 * The section of the reference's introduction on the operations the platform documents and this
 * description does not describe (the record's extensions), as Markdown: a heading, so Redoc lists
 * it in the sidebar beside the introduction's other sections, and one HTML block. Undefined when
 * the record has none, so no empty section is shown.
 */
export function platformExtensionsMarkdown(
  record: PlatformFacts,
  header = EXTENSION_HEADER,
): string | undefined {
  const extensions = record.extensions ?? [];
  if (extensions.length === 0) return undefined;
  const intro = `<p>The platform's published descriptions document these operations, which <strong>this description does not describe at all</strong>. They are not part of it: the reference has no entry for them, the client's types do not name them, and the conformance suite never judges them (it counts them among the operations the description does not describe). They are listed for a reader calling the live platform, whose own clients use them; see <code>spec/platform-facts.yaml</code>.</p>`;
  return `## ${EXTENSIONS_TITLE}\n\n<div class="platform-note platform-extensions" role="note">${intro}${extensions.map((e) => extensionHtml(e, header)).join("")}</div>`;
}

/**
 * Appends the section on the record's extensions to the description's introduction (doc changed
 * in place), after everything else there; answers the ids of the extensions shown.
 */
export function markPlatformExtensions(doc: Json, record: PlatformFacts = platformFacts()): string[] {
  const section = platformExtensionsMarkdown(record);
  if (!section) return [];
  if (!isObject(doc.info))
    throw new Error("The description has no info to show the platform's extensions in.");
  const description = typeof doc.info.description === "string" ? doc.info.description.trimEnd() : "";
  doc.info.description = `${description}${description ? "\n\n" : ""}${section}\n`;
  return (record.extensions ?? []).map((e) => e.id);
}
