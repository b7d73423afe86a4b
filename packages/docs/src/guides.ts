// The guides: Markdown files in guides/, rendered to HTML pages. A guide links to an operation
// with `ref:<operationId>` and to another guide with `guide:<slug>`; both are checked at build
// time, as are the `<!-- spec:... -->` markers that pull tables from the description.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Marked, Renderer, type Token, type Tokens } from "marked";
import { codeFigure } from "./code-figure.js";
import type { Json } from "./operations.js";
import { packageFile } from "./package-files.js";
import { SPEC_TABLES } from "./spec-tables.js";

/** The guides in reading order; the site's navigation follows it. */
export const GUIDE_ORDER = [
  "getting-started",
  "pagination",
  "tasks",
  "rate-limits",
  "errors",
  "client",
  "simulator",
  "conformance-live",
  "conformance-ci",
  "conformance-traffic",
  "conformance-fuzz",
] as const;

export interface Guide {
  slug: string;
  title: string;
  summary: string;
  markdown: string;
}

export const guidesDir = new URL("../guides/", import.meta.url).pathname;

/** The guides of `dir`, each a file of the package at `root` (src/package-files.ts). */
export function loadGuides(dir = guidesDir, root = join(dir, "..")): Guide[] {
  return GUIDE_ORDER.map((slug) => {
    const markdown = readFileSync(packageFile(root, join(dir, `${slug}.md`)), "utf8");
    const title = /^# (.+)$/m.exec(markdown)?.[1]?.trim();
    if (!title) throw new Error(`guides/${slug}.md must start with a "# Title" line.`);
    const afterTitle = markdown.slice(markdown.indexOf(title) + title.length).trim();
    const summary = (afterTitle.split(/\n\s*\n/)[0] ?? "").replace(/\s+/g, " ").trim();
    return { slug, title, summary, markdown };
  });
}

/** Replaces each `<!-- spec:name -->` line with the table of that name built from `doc`. */
export function expandSpecTables(markdown: string, doc: Json, where: string): string {
  return markdown.replace(/^<!--\s*spec:([a-z-]+)\s*-->$/gm, (_, name: string) => {
    const build = SPEC_TABLES[name];
    if (!build)
      throw new Error(
        `${where}: unknown table marker "spec:${name}"; known: ${Object.keys(SPEC_TABLES).join(", ")}.`,
      );
    return build(doc);
  });
}

export interface LinkTargets {
  operationIds: ReadonlySet<string>;
  guideSlugs: ReadonlySet<string>;
  /** Where an operation's reference lives, from the page the Markdown is rendered into. */
  operationHref(operationId: string): string;
  /** Where a guide's page lives, from that page; the guides' own folder (`<slug>.html`) by default. */
  guideHref?(slug: string): string;
}

/**
 * A heading's id, from its text or its HTML: tags dropped, and an escaped character (`&#39;`) taken
 * as the one character it stands for, so "The client's typed errors" is `the-client-s-typed-errors`
 * from either (the "On this page" list slugs the text, the heading its HTML).
 */
export const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/&(#\d+|[a-z]+);/g, " ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** Points each `ref:` and `guide:` link at its page, and notes in `problems` a link that cannot be. */
function resolveLinks(targets: LinkTargets, problems: string[]) {
  const guideHref = targets.guideHref ?? ((slug: string) => `${slug}.html`);
  return (token: Token) => {
    if (token.type !== "link") return;
    const link = token as Tokens.Link;
    const [scheme, target = ""] = link.href.split(/:(.*)/s);
    if (scheme === "ref") {
      if (!targets.operationIds.has(target)) problems.push(`unknown operation "${target}"`);
      link.href = targets.operationHref(target);
    } else if (scheme === "guide") {
      const [slug = "", anchor] = target.split("#");
      if (!targets.guideSlugs.has(slug)) problems.push(`unknown guide "${slug}"`);
      link.href = `${guideHref(slug)}${anchor ? `#${anchor}` : ""}`;
    } else if (!link.href.startsWith("#")) {
      problems.push(`link "${link.href}" leaves the site; use ref:<operationId>, guide:<slug> or #anchor`);
    }
  };
}

/**
 * A guide's summary (its first paragraph) as inline HTML for another page, its links resolved as
 * the guide's own page resolves them, but from that page (`targets`).
 */
export function renderInlineMarkdown(markdown: string, targets: LinkTargets, where: string): string {
  const problems: string[] = [];
  const html = new Marked({ gfm: true, walkTokens: resolveLinks(targets, problems) }).parseInline(markdown, {
    async: false,
  });
  if (problems.length > 0) throw new Error(`${where}: ${problems.join("; ")}.`);
  return html;
}

/** Renders a guide's Markdown (spec tables already expanded) to HTML. */
export function renderMarkdown(markdown: string, targets: LinkTargets, where: string): string {
  const problems: string[] = [];
  const marked = new Marked({
    gfm: true,
    walkTokens: resolveLinks(targets, problems),
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        if (depth === 1) return `<h1>${inner}</h1>\n`;
        const id = slugify(inner);
        return `<h${depth} id="${id}"><a class="anchor" href="#${id}" aria-label="Link to this section">#</a>${inner}</h${depth}>\n`;
      },
      code({ text, lang }) {
        return codeFigure(text, lang ?? "");
      },
      table(token) {
        // Code in a table never breaks inside a word (site.css); a path may break after its "/".
        const html = Renderer.prototype.table
          .call(this, token)
          .replace(
            /<code>([^<]*)<\/code>/g,
            (_: string, text: string) => `<code>${text.replace(/\//g, "/<wbr>")}</code>`,
          );
        // A table too wide for a phone scrolls in its box: the box takes focus, so a keyboard can scroll it.
        return `<div class="table-wrap" tabindex="0">${html}</div>`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  if (problems.length > 0) throw new Error(`${where}: ${problems.join("; ")}.`);
  return html;
}

/** The ```ts blocks of a Markdown text: each is a whole module, type-checked by the tests. */
export function typescriptBlocks(markdown: string): string[] {
  return new Marked()
    .lexer(markdown)
    .filter((t): t is Tokens.Code => t.type === "code" && (t as Tokens.Code).lang === "ts")
    .map((t) => t.text);
}

/** The guide's second-level headings, for its "On this page" list. */
export function outline(markdown: string): { id: string; title: string }[] {
  return [...markdown.matchAll(/^## (.+)$/gm)].map((m) => {
    const title = (m[1] ?? "").replace(/`/g, "");
    return { id: slugify(title), title };
  });
}
