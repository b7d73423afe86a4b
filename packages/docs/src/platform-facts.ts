// What the platform's own published descriptions document beyond the seed (spec/platform-facts.yaml),
// shown on each operation of the reference as a note of its own: the description stays the seed,
// and a reader calling the live platform sees what its clients may send and what it may answer.
// Only facts where the seed is silent are shown; where the two disagree the description (the seed)
// is what the reference documents, and spec/README.md lists the disagreements.
import { type PlatformFact, type PlatformFacts, platformFacts } from "@platform-api/spec";
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
