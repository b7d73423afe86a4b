// The landing page: what the platform is, a first call, the products with their operations, and
// the guides. Everything on it comes from the description and the guides' own titles.
import { buildModel } from "@platform-api/spec";
import { codeFigure } from "./code-figure.js";
import { curlSample, typescriptSample } from "./code-samples.js";
import { type Guide, renderInlineMarkdown } from "./guides.js";
import { escapeHtml } from "./layout.js";
import { isObject, type Json, listOperations, type Operation, tokenSchemeOf } from "./operations.js";
import { operationAnchor } from "./reference.js";

export interface TagGroup {
  name: string;
  tags: string[];
}

/** The call the landing page starts with: it answers with the account that holds the token. */
const FIRST_CALL = "getCurrentClient";

export function landingMain(doc: Json, guides: Guide[]): string {
  const { title } = buildModel(doc);
  const summary = isObject(doc.info) && typeof doc.info.summary === "string" ? doc.info.summary : "";
  const operations = listOperations(doc);
  const firstCall = operations.find((op) => op.operationId === FIRST_CALL) ?? operations[0];
  if (!firstCall) throw new Error("The description has no operation to show on the landing page.");
  const { headerName, tokenPrefix } = tokenSchemeOf(doc, firstCall);
  const firstCallText =
    firstCall.operationId === FIRST_CALL
      ? `<code>${firstCall.method.toUpperCase()} ${escapeHtml(firstCall.path)}</code> answers with the account that holds the token: the quickest way to check it.`
      : `<code>${firstCall.method.toUpperCase()} ${escapeHtml(firstCall.path)}</code>: ${escapeHtml(firstCall.summary)}.`;
  const groups = tagGroups(doc);

  const products = groups
    .map((group) => {
      const ops = operations.filter((op) => op.tags.some((t) => group.tags.includes(t)));
      const items = ops
        .map(
          (op) =>
            `<li><a href="reference/index.html#${operationAnchor(op)}"><span class="method ${op.method}">${op.method.toUpperCase()}</span><span class="op-summary">${escapeHtml(op.summary)}</span></a></li>`,
        )
        .join("");
      return `<section class="card product"><h3>${escapeHtml(group.name)}</h3><ul class="op-list">${items}</ul></section>`;
    })
    .join("\n");

  const guideCards = guideCardsHtml(guides, operations);

  return `<section class="hero">
  <h1>${escapeHtml(title)}</h1>
  <p class="lead">${escapeHtml(summary)}</p>
  <p class="actions"><a class="button primary" href="guides/getting-started.html">Get started</a><a class="button" href="reference/index.html">API reference</a></p>
</section>
<section class="first-call" aria-labelledby="first-call">
  <h2 id="first-call">Your first call</h2>
  <p>Every call carries <code>${escapeHtml(`${headerName}: ${tokenPrefix}`)}&lt;token&gt;</code>. Tokens contain a <code>$</code>, so keep them in single quotes on a shell command line. ${firstCallText}</p>
  <div class="samples">
    ${codeFigure(curlSample(doc, firstCall), "bash", "curl")}    ${codeFigure(typescriptSample(doc, firstCall), "typescript")}
  </div>
</section>
<section aria-labelledby="products">
  <h2 id="products">Products and operations</h2>
  <p>One base address serves every product under its own path prefix. These are the operations this reference describes; each link opens it in the API reference with samples in curl, TypeScript and, where the platform's Python SDK (gcore-python) has a method for it, Python.</p>
  <div class="grid products">${products}</div>
</section>
<section aria-labelledby="guides">
  <h2 id="guides">Guides</h2>
  <div class="grid guides">${guideCards}</div>
</section>`;
}

/**
 * A card per guide: its title links to it, and its summary reads as on the guide's page, code and
 * links rendered. The card is no link itself, since a link inside a link is not HTML; the title's
 * link covers the card (site.css), the summary's own links above it.
 */
function guideCardsHtml(guides: Guide[], operations: Operation[]): string {
  const anchors = new Map(operations.map((op) => [op.operationId, operationAnchor(op)]));
  const targets = {
    operationIds: new Set(anchors.keys()),
    guideSlugs: new Set(guides.map((g) => g.slug)),
    operationHref: (id: string) => `reference/index.html#${anchors.get(id) ?? ""}`,
    guideHref: (slug: string) => `guides/${slug}.html`,
  };
  return guides
    .map(
      (g) =>
        `<article class="card guide-card"><h3><a href="guides/${g.slug}.html">${escapeHtml(g.title)}</a></h3><p>${renderInlineMarkdown(g.summary, targets, `guides/${g.slug}.md`)}</p></article>`,
    )
    .join("\n");
}

/** Redoc's product groups (`x-tagGroups`), which the spec model does not carry. */
export function tagGroups(doc: Json): TagGroup[] {
  const groups = Array.isArray(doc["x-tagGroups"]) ? doc["x-tagGroups"] : [];
  return groups.filter(isObject).map((g) => ({
    name: String(g.name ?? ""),
    tags: Array.isArray(g.tags) ? g.tags.map(String) : [],
  }));
}
