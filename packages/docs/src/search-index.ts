// The site's one search, over the guides and the reference: every section of every guide, every
// operation and every described tag of the reference, indexed with MiniSearch at build time and
// written as a script (assets/search-index.js) that the pages load from the site itself when the
// search box is first used (assets/search.js). Nothing is fetched from anywhere else.
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
  text: string;
}

/** MiniSearch's options, which the browser must repeat to load the index (tokenize aside). */
export const SEARCH_OPTIONS = {
  fields: ["title", "context", "keywords", "text"],
  storeFields: ["kind", "title", "context"],
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

/** The text of an HTML fragment, as a reader sees it. */
export function htmlText(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&(lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, " ")
    .trim();
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
  const entries = [entry(page, guide.title, 0, headings[0]?.index ?? html.length)];
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
        text: typeof op.node.description === "string" ? op.node.description : "",
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
          text: String(tag.description),
        }),
      ),
  ];
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
