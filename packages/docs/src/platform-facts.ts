// What the platform's own published descriptions document beyond the seed, in the reference. The
// bundle the reference renders is the merged one (spec/scripts/merge-platform.mjs): each node a fact
// adds or amends is in the schema and cites its source (`x-platform-source`), so the reference says
// that source once, as a mark after the node's description linking to the file at its commit, and
// once per operation says what the mark means and lists where each marked thing was read. Facts the
// record marks `seed: disagrees` are not in the schema (the seed wins): the operation lists them.
// The operations the platform documents and the description does not describe at all (the record's
// extensions) have no operation to carry anything: they get a section of the reference's
// introduction of their own. No text of the platform's is shown, only names, types and values,
// and the record's own notes.
import {
  EXTENSION_HEADER,
  type PlatformExtension,
  type PlatformFact,
  type PlatformFactSource,
  type PlatformFacts,
  platformFacts,
  pointer,
} from "@platform-api/spec";
import { appendInline } from "./descriptions.js";
import { escapeHtml } from "./layout.js";
import { isObject, type Json, listOperations } from "./operations.js";
import { eachReached } from "./schema-walk.js";
import { describable } from "./unspecified.js";

// Record text goes into one HTML block of Markdown: a blank line would end the block and hand the
// rest to Markdown, so runs of white space become one space before escaping.
const text = (s: string) => escapeHtml(s.replace(/\s+/g, " "));

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

/** What a fact is about, in a few words of HTML: "query parameter <code>state</code>". */
function subjectHtml(fact: PlatformFact): string {
  if (fact.kind === "parameter") return `${fact.in} parameter <code>${text(fact.name)}</code>`;
  if (fact.kind === "status") return `status <code>${text(fact.status)}</code>`;
  return fact.at === "request"
    ? `request field <code>${text(fact.field)}</code>`
    : `field <code>${text(fact.field)}</code> of the ${text(fact.status ?? "")} answer`;
}

/** Where the merged bundle cites a node's source (the merge script's SOURCE_KEY). */
const SOURCE_KEY = "x-platform-source";

/** The word a node the platform's documents add or amend is marked with. */
export const PLATFORM_MARK = "platform";

/** A citation as the bundle carries it (`x-platform-source`): the fact's id and where it was read. */
export interface Citation extends PlatformFactSource {
  readonly fact: string;
}

const isCitation = (value: unknown): value is Citation =>
  isObject(value) &&
  typeof value.fact === "string" &&
  typeof value.repository === "string" &&
  typeof value.path === "string" &&
  typeof value.commit === "string";

const citationsOf = (node: Json): Citation[] => {
  const list = node[SOURCE_KEY];
  return Array.isArray(list) ? list.filter(isCitation) : [];
};

/** The file at its commit on GitHub, at the line when the citation names one (a pointer is shown as text). */
export const citationUrl = (c: PlatformFactSource): string =>
  `https://github.com/${c.repository.split("/").map(encodeURIComponent).join("/")}/blob/${c.commit}/${c.path
    .split("/")
    .map(encodeURIComponent)
    .join("/")}${c.line !== undefined ? `#L${c.line}` : ""}`;

const citationWords = (c: PlatformFactSource): string =>
  `${c.repository}, ${c.path} at ${c.commit}${c.pointer !== undefined ? `, ${c.pointer}` : c.line !== undefined ? `, line ${c.line}` : ""}`;

/**
 * The mark after a node's description: one per node, a link to its (first) source, every source on
 * hover. A status's mark is no link: Redoc shows an answer's description inside the button that
 * opens it, where a link is a control inside a control (no keyboard reaches it, a screen reader
 * reads it as part of the button); the operation's paragraph links every source (`platformParagraphHtml`).
 */
export function platformMarkHtml(citations: readonly Citation[], { link = true } = {}): string {
  const [first] = citations;
  if (!first) throw new Error("A platform mark needs a citation.");
  const title = `Documented by the platform's published description: ${[...new Set(citations.map(citationWords))].join("; ")}`;
  return link
    ? `<a class="platform-mark" href="${escapeHtml(citationUrl(first))}" title="${text(title)}">${PLATFORM_MARK}</a>`
    : `<span class="platform-mark" title="${text(title)}">${PLATFORM_MARK}</span>`;
}

/** Whether Redoc shows the description of the node at `path` inside a button: an answer's. */
const shownInButton = (path: string[]) => path.at(-2) === "responses";

/**
 * Whether an `allOf` entry's citation is already shown by the mark of the field it requires (the
 * merge's "required when the sibling has a value"): its source is said once, on the field.
 */
function saidOnItsField(node: Json, parent: Json | undefined): boolean {
  const then = isObject(node.then) ? node.then : undefined;
  const names = Array.isArray(then?.required) ? then.required.map(String) : [];
  const properties = isObject(parent?.properties) ? parent.properties : {};
  const facts = citationsOf(node).map((c) => c.fact);
  return (
    names.length > 0 &&
    names.every((name) => {
      const property = properties[name];
      return isObject(property) && facts.every((f) => citationsOf(property).some((c) => c.fact === f));
    })
  );
}

/**
 * Appends a mark to the description Redoc shows of every node the platform's documents add or
 * amend (doc changed in place): the node itself, or the nearest one above it Redoc shows a
 * description of. Answers the nodes marked.
 */
export function markPlatformSources(doc: Json): Json[] {
  const hosts = new Map<Json, Citation[]>();
  const inButton = new Set<Json>();
  const walk = (node: unknown, path: string[], host: Json | undefined, parent: Json | undefined) => {
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) walk(child, [...path, String(i)], host, parent);
      return;
    }
    if (!isObject(node)) return;
    const here = describable(path) ? node : host;
    if (here === node && shownInButton(path)) inButton.add(node);
    const citations = citationsOf(node);
    const allOfEntry = path.at(-2) === "allOf";
    if (citations.length > 0 && !(allOfEntry && saidOnItsField(node, parent))) {
      if (!here) throw new Error(`${SOURCE_KEY} at ${pointer(...path)} has no node to show it on.`);
      const list = hosts.get(here) ?? [];
      for (const c of citations) if (!list.some((d) => d.fact === c.fact)) list.push(c);
      hosts.set(here, list);
    }
    for (const [key, child] of Object.entries(node))
      if (key !== SOURCE_KEY) walk(child, [...path, key], here, key === "allOf" ? node : parent);
  };
  walk(doc, [], undefined, undefined);
  for (const [node, citations] of hosts)
    appendInline(node, platformMarkHtml(citations, { link: !inButton.has(node) }));
  return [...hosts.keys()];
}

/** Every citation an operation shows (its own nodes and every schema it reaches), each fact once. */
export function operationCitations(doc: Json, operation: Json): Citation[] {
  const found: Citation[] = [];
  eachReached(doc, operation, (node) => {
    for (const c of citationsOf(node)) if (!found.some((d) => d.fact === c.fact)) found.push(c);
  });
  return found;
}

/** What the reference says once per operation of the platform's marks (the legend). */
export const PLATFORM_LEGEND = `Fields, parameters and statuses marked <span class="platform-mark legend">${PLATFORM_MARK}</span> are documented by the platform's published description, not by the seed; the seed wins where both speak (see <code>spec/README.md</code>).`;

function sourceLinkHtml(source: PlatformFactSource): string {
  const where =
    source.pointer !== undefined
      ? `, <code>${text(source.pointer)}</code>`
      : source.line !== undefined
        ? `, line ${source.line}`
        : "";
  return `<a href="${escapeHtml(citationUrl(source))}">${text(source.repository)}</a>, <code>${text(source.path)}</code> at commit <code>${text(source.commit)}</code>${where}`;
}

/**
 * One operation's paragraph on the platform's documents, or undefined when it has nothing to say:
 * the legend of the marks with where each marked thing was read (folded: the marks link there
 * too), and the facts where the seed disagrees, which are not in the schema.
 */
export function platformParagraphHtml(
  citations: readonly Citation[],
  disagreeing: readonly PlatformFact[],
  byId: ReadonlyMap<string, PlatformFact>,
): string | undefined {
  if (citations.length === 0 && disagreeing.length === 0) return undefined;
  const parts: string[] = [];
  if (citations.length > 0) {
    const items = citations.map((c) => {
      const fact = byId.get(c.fact);
      const about = fact ? subjectHtml(fact) : `fact <code>${text(c.fact)}</code>`;
      const note = fact?.note ? ` ${text(fact.note)}` : "";
      return `<li>${about}: ${sourceLinkHtml(c)}.${note}</li>`;
    });
    parts.push(
      `<p>${PLATFORM_LEGEND}</p><details class="platform-sources"><summary>Where each was read (${citations.length})</summary><ul>${items.join("")}</ul></details>`,
    );
  }
  if (disagreeing.length > 0) {
    const items = disagreeing.map((fact) => {
      const described = fact.kind === "status" || fact.schema === undefined ? "" : schemaWords(fact.schema);
      const seed = fact.seedSays ? `; the seed: ${text(fact.seedSays.replace(/\.\s*$/, ""))}` : "";
      const note = fact.note ? ` ${text(fact.note)}` : "";
      return `<li>${subjectHtml(fact)}${described ? `: ${described}` : ""}${seed}. From ${sourceLinkHtml(fact.source)}.${note}</li>`;
    });
    parts.push(
      `<details class="platform-disagreements"><summary><strong>Where the seed wins</strong> (${disagreeing.length}): the platform's published description says otherwise, and this description follows the seed.</summary><ul>${items.join("")}</ul></details>`,
    );
  }
  return `<div class="platform-note" role="note">${parts.join("")}</div>`;
}

/**
 * Marks every node the platform's documents add or amend (doc changed in place); answers, by
 * operationId, the paragraph for each operation that shows a mark or has a fact the seed
 * disagrees with, for its description (reference.ts places it).
 */
export function markPlatformFacts(doc: Json, record: PlatformFacts = platformFacts()): Map<string, string> {
  const byId = new Map<string, PlatformFact>();
  for (const facts of Object.values(record.operations)) for (const f of facts) byId.set(f.id, f);
  // Read before the marks change any description: the walk only needs the citations.
  const paragraphs = new Map<string, string>();
  for (const op of listOperations(doc)) {
    const disagreeing = (record.operations[op.operationId] ?? []).filter((f) => f.seed === "disagrees");
    const html = platformParagraphHtml(operationCitations(doc, op.node), disagreeing, byId);
    if (html) paragraphs.set(op.operationId, html);
  }
  markPlatformSources(doc);
  return paragraphs;
}

/** The title of the reference's section on the record's extensions, a heading of its introduction. */
export const EXTENSIONS_TITLE = "Documented by the platform, not by this description";

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
