// The description marks what the platform's documentation leaves open with `x-unspecified` (a
// list of sentences). Redoc does not show unknown extensions, so each list becomes a visible note
// appended to the description of the nearest node Redoc renders a description for.
import { HTTP_METHODS, pointer } from "@platform-api/spec";
import { appendBlock } from "./descriptions.js";
import { escapeHtml } from "./layout.js";
import type { Json } from "./operations.js";
import { reachesKey } from "./schema-walk.js";

/** Where the merged bundle cites what the platform's published description states. */
const PLATFORM_SOURCE = "x-platform-source";

const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);
const COMPONENT_KINDS = new Set(["schemas", "parameters", "responses", "headers", "securitySchemes"]);

/** Whether Redoc renders the `description` of the node at this path. */
export function describable(path: string[]): boolean {
  const [first, second] = path;
  const last = path.at(-1);
  const parent = path.at(-2);
  if (path.length === 1 && first === "info") return true;
  if (path.length === 3 && first === "paths" && METHODS.has(path[2] ?? "")) return true;
  if (path.length === 3 && first === "components" && COMPONENT_KINDS.has(second ?? "")) return true;
  if (parent === "parameters" || parent === "properties" || parent === "headers" || parent === "responses")
    return true;
  return last === "items" || last === "additionalProperties" || last === "schema";
}

export interface UnspecifiedNote {
  /** JSON pointer of the node carrying `x-unspecified`. */
  from: string;
  /** JSON pointer of the node whose description shows it. */
  shownOn: string;
  sentences: string[];
  /** Whether the node, or one it reaches, carries what the platform's published description states. */
  filledByPlatform: boolean;
}

/** One sentence as inline HTML: escaped, with `code` spans. */
export const sentenceHtml = (s: string) => escapeHtml(s).replace(/`([^`]+)`/g, "<code>$1</code>");

/**
 * Said in a note whose node, or something under it, the platform's published description fills
 * (a mark of platform-facts.ts): the seed's sentence still stands (the merge takes out only those a
 * fact says it fills), and the platform's statement beside it would read as a contradiction.
 */
export const WHICH_WINS =
  "Where marked platform, the platform's published description fills this, and the schema shows what it states.";

/** The note as one line of HTML (Redoc passes HTML in descriptions through). */
export function unspecifiedHtml(sentences: string[], filledByPlatform = false): string {
  const body =
    sentences.length === 1
      ? `<span>${sentenceHtml(sentences[0] ?? "")}</span>`
      : `<ul>${sentences.map((s) => `<li>${sentenceHtml(s)}</li>`).join("")}</ul>`;
  const wins = filledByPlatform ? ` <span class="which-wins">${escapeHtml(WHICH_WINS)}</span>` : "";
  return `<div class="unspecified-note" role="note"><strong>Not specified by the platform's documentation:</strong> ${body}${wins}</div>`;
}

/**
 * Appends every `x-unspecified` list of `doc` (changed in place) to a description Redoc shows,
 * and answers where each went.
 */
export function markUnspecified(doc: Json): UnspecifiedNote[] {
  const notes: UnspecifiedNote[] = [];
  const pending = new Map<Json, { path: string[]; sentences: string[]; filledByPlatform: boolean }>();

  const walk = (node: unknown, path: string[], host: { node: Json; path: string[] } | undefined) => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) walk(child, [...path, String(i)], host);
      return;
    }
    const obj = node as Json;
    const here = describable(path) ? { node: obj, path } : host;
    const sentences = obj["x-unspecified"];
    if (Array.isArray(sentences) && sentences.length > 0) {
      if (!here) throw new Error(`x-unspecified at ${pointer(...path)} has no node to show it on.`);
      // The node the note is shown on counts too: a note kept in an extension (x-task-polling) is
      // shown on its operation, beside the fields the platform fills there.
      const filledByPlatform =
        reachesKey(doc, obj, PLATFORM_SOURCE) || reachesKey(doc, here.node, PLATFORM_SOURCE);
      const entry = pending.get(here.node) ?? { path: here.path, sentences: [], filledByPlatform: false };
      entry.sentences.push(...sentences.map(String));
      entry.filledByPlatform ||= filledByPlatform;
      pending.set(here.node, entry);
      notes.push({
        from: pointer(...path),
        shownOn: pointer(...here.path),
        sentences: sentences.map(String),
        filledByPlatform,
      });
    }
    for (const [key, child] of Object.entries(obj))
      if (key !== "x-unspecified") walk(child, [...path, key], here);
  };
  walk(doc, [], undefined);

  for (const [node, { sentences, filledByPlatform }] of pending)
    appendBlock(node, unspecifiedHtml(sentences, filledByPlatform));
  return notes;
}
