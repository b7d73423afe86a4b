// The site's one search, over the guides and the reference: every section of every guide, every
// operation, every described tag and every section of the description's own introduction (its
// general rules: pagination, rate limits, errors…), indexed with MiniSearch at build time and
// written as a script (assets/search-index.js) that the pages load from the site itself when the
// search box is first used (assets/search.js). Nothing is fetched from anywhere else.
import { createRequire } from "node:module";
import { Marked, type Tokens } from "marked";
import MiniSearch, { type AsPlainObject } from "minisearch";
import "../assets/search-terms.js";
import type { Guide } from "./guides.js";
import { isObject, type Json, type Operation } from "./operations.js";
import { operationAnchor, tagSlug } from "./reference.js";

export interface SearchEntry {
  /** Where the result leads, from the site's root: `guides/<slug>.html#<section>`, `reference/index.html#…`. */
  id: string;
  kind: "guide" | "operation" | "reference";
  title: string;
  /** Where it sits: the guide's title, or the operation's method and path. */
  context: string;
  /** Names to find it by: the operation's id, path, parameters and tag. */
  keywords: string;
  /** Plain text, stored in the index too: a result shows a snippet of it around the matched words. */
  text: string;
}

/** MiniSearch's options, which the browser must repeat to load the index (tokenize aside). */
export const SEARCH_OPTIONS = {
  fields: ["title", "context", "keywords", "text"],
  storeFields: ["kind", "title", "context", "text"],
};

export interface SearchIndexFile {
  options: typeof SEARCH_OPTIONS;
  index: AsPlainObject;
}

const ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&amp;": "&",
};

/** The character a numeric entity stands for (`&#x27;`, as highlight.js writes a quote). */
const character = (entity: string) => {
  const code = /^&#x/i.test(entity)
    ? Number.parseInt(entity.slice(3), 16)
    : Number.parseInt(entity.slice(2), 10);
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
};

/** The text of an HTML fragment, as a reader sees it. */
export function htmlText(html: string): string {
  return (
    html
      // Inline tags go without a trace ("`offset`," reads "offset,"); any other tag parts words.
      .replace(/<\/?(?:a|code|em|strong|b|i|span|kbd|mark|wbr)\b[^>]*>/g, "")
      .replace(/<[^>]+>/g, " ")
      .replace(/&(lt|gt|quot|#39|amp|#\d+|#x[0-9a-f]+);/gi, (entity) => ENTITIES[entity] ?? character(entity))
      .replace(/\s+/g, " ")
      .trim()
  );
}

/** The text of a Markdown fragment (a description's), as a reader sees it once rendered. */
export function markdownText(markdown: string): string {
  return htmlText(new Marked({ gfm: true }).parse(markdown, { async: false }));
}

/**
 * The anchor Redoc gives a heading of a description, made by Redoc's own slugify (a dependency of
 * Redoc, resolved from Redoc's package, so the two never differ): `section/Rate-limits`.
 */
const redocRequire = createRequire(createRequire(import.meta.url).resolve("redoc/package.json"));
const redocSlugify = redocRequire("slugify") as (text: string) => string;
export const sectionSlug = (heading: string) =>
  redocSlugify(heading) ||
  heading
    .toLowerCase()
    .replace(/\s+/g, "-")
    .replace(/&/g, "-and-")
    .replace(/--+/g, "-")
    .replace(/^-+|-+$/g, "");

/** How an operation pages, in words, from the spec model: what finds it for "pagination". */
function paginationText(op: Operation): string {
  const p = op.pagination;
  if (!p) return "";
  return p.style === "page"
    ? `Pagination: paginated by page, with ${p.pageParam} and ${p.limitParam}; the neighbour pages are linked in ${p.nextField} and ${p.previousField}.`
    : `Pagination: paginated by offset, with ${p.offsetParam} and ${p.limitParam}; ${p.countField} holds the total.`;
}

/** A guide's entries: its opening (up to the first section) and each of its sections, from its HTML. */
export function guideEntries(guide: Guide, html: string): SearchEntry[] {
  const page = `guides/${guide.slug}.html`;
  const headings = [...html.matchAll(/<h([23]) id="([^"]+)">([\s\S]*?)<\/h\1>/g)];
  const entry = (id: string, title: string, from: number, to: number): SearchEntry => ({
    id,
    kind: "guide",
    title,
    context: guide.title,
    keywords: "",
    text: htmlText(html.slice(from, to)),
  });
  // The opening's text starts after the title, which the entry's title already holds.
  const h1 = html.indexOf("</h1>");
  const entries = [entry(page, guide.title, h1 >= 0 ? h1 + 5 : 0, headings[0]?.index ?? html.length)];
  headings.forEach((h, i) => {
    const start = (h.index ?? 0) + h[0].length;
    const end = headings[i + 1]?.index ?? html.length;
    const title = htmlText((h[3] ?? "").replace(/<a class="anchor"[^>]*>.*?<\/a>/, ""));
    entries.push(entry(`${page}#${h[2]}`, title, start, end));
  });
  return entries;
}

/** The reference's entries: every operation, and every tag the description describes. */
export function referenceEntries(doc: Json, operations: Operation[]): SearchEntry[] {
  const tags = (Array.isArray(doc.tags) ? doc.tags : []).filter(isObject);
  return [
    ...operations.map(
      (op): SearchEntry => ({
        id: `reference/index.html#${operationAnchor(op)}`,
        kind: "operation",
        title: op.summary,
        context: `${op.method.toUpperCase()} ${op.path}`,
        keywords: [op.operationId, ...op.tags, ...op.parameters.map((p) => p.name)].join(" "),
        text: [
          paginationText(op),
          typeof op.node.description === "string" ? markdownText(op.node.description) : "",
        ]
          .filter(Boolean)
          .join(" "),
      }),
    ),
    ...tags
      .filter((tag) => typeof tag.name === "string" && typeof tag.description === "string")
      .map(
        (tag): SearchEntry => ({
          id: `reference/index.html#tag/${tagSlug(String(tag.name))}`,
          kind: "reference",
          title: String(tag.name),
          context: "API reference",
          keywords: "",
          text: markdownText(String(tag.description)),
        }),
      ),
  ];
}

/**
 * The reference's own sections, as Redoc shows them: each heading (levels 1 and 2) of the
 * description's introduction (`info.description`: its general rules, pagination, rate limits,
 * errors…), at Redoc's anchor `section/<heading>` (a level 2 under a level 1: `<its id>/<heading>`).
 * `doc` is the description as the reference page embeds it (src/reference.ts), notes included. (The
 * security schemes get no section of their own: Redoc shows them on each operation.)
 */
export function descriptionSectionEntries(doc: Json): SearchEntry[] {
  const entries: SearchEntry[] = [];
  const info = isObject(doc.info) ? doc.info : {};
  const description = typeof info.description === "string" ? info.description : "";
  let top: string | undefined;
  let current: { id: string; title: string; markdown: string[] } | undefined;
  const close = () => {
    if (current)
      entries.push({
        id: `reference/index.html#${current.id}`,
        kind: "reference",
        title: current.title,
        context: "API reference",
        keywords: "",
        text: markdownText(current.markdown.join("")),
      });
  };
  for (const token of new Marked({ gfm: true }).lexer(description)) {
    const heading = token.type === "heading" ? (token as Tokens.Heading) : undefined;
    if (heading && heading.depth <= 2) {
      close();
      const slug = sectionSlug(heading.text);
      const id = heading.depth === 1 || !top ? `section/${slug}` : `${top}/${slug}`;
      if (heading.depth === 1) top = id;
      current = { id, title: htmlText(heading.text.replace(/`/g, "")), markdown: [] };
    } else current?.markdown.push(token.raw);
  }
  close();
  return entries;
}

/** The index of these entries, as the browser loads it. Two entries for one place are merged. */
export function searchIndex(entries: SearchEntry[]): SearchIndexFile {
  const byId = new Map<string, SearchEntry>();
  for (const entry of entries) {
    const seen = byId.get(entry.id);
    if (seen) seen.text = `${seen.text} ${entry.title} ${entry.text}`;
    else byId.set(entry.id, { ...entry });
  }
  const search = new MiniSearch<SearchEntry>({ ...SEARCH_OPTIONS, tokenize: globalThis.platformSearchTerms });
  search.addAll([...byId.values()]);
  return { options: SEARCH_OPTIONS, index: search.toJSON() };
}

/** assets/search-index.js: the index as a classic script, so it loads from the file system too. */
export function searchIndexScript(entries: SearchEntry[]): string {
  // `</script` never matters in a script file, but keep the file safe to inline anyway.
  const json = JSON.stringify(searchIndex(entries)).replace(/</g, "\\u003c");
  return `// The site's search index, written by the docs build (src/search-index.ts).\nglobalThis.platformSearchIndex = ${json};\n`;
}
