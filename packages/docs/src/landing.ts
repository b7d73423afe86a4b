// The landing page: what the platform is, a first call, the products with their operations, and
// the guides. Everything on it comes from the description and the guides' own titles.
import { codeFigure } from "./code-figure.js";
import { curlSample, typescriptSample } from "./code-samples.js";
import type { Guide } from "./guides.js";
import { escapeHtml } from "./layout.js";
import { type Json, listOperations } from "./operations.js";
import { operationAnchor } from "./reference.js";

interface TagGroup {
  name: string;
  tags: string[];
}

export function landingMain(doc: Json, guides: Guide[]): string {
  const info = doc.info as { title: string; summary?: string };
  const operations = listOperations(doc);
  const firstCall = operations.find((op) => op.operationId === "getCurrentClient") ?? operations[0];
  if (!firstCall) throw new Error("The description has no operation to show on the landing page.");
  const groups = (doc["x-tagGroups"] ?? []) as TagGroup[];

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

  const guideCards = guides
    .map(
      (g) =>
        `<a class="card guide-card" href="guides/${g.slug}.html"><h3>${escapeHtml(g.title)}</h3><p>${escapeHtml(g.summary.replace(/`/g, ""))}</p></a>`,
    )
    .join("\n");

  return `<section class="hero">
  <h1>${escapeHtml(info.title)}</h1>
  <p class="lead">${escapeHtml(info.summary ?? "")}</p>
  <p class="actions"><a class="button primary" href="guides/getting-started.html">Get started</a><a class="button" href="reference/index.html">API reference</a></p>
</section>
<section class="first-call" aria-labelledby="first-call">
  <h2 id="first-call">Your first call</h2>
  <p>Every call carries <code>Authorization: APIKey &lt;token&gt;</code>. Tokens contain a <code>$</code>, so keep them in single quotes on a shell command line. <code>GET /iam/clients/me</code> answers with the account that holds the token: the quickest way to check it.</p>
  <div class="samples">
    ${codeFigure(curlSample(doc, firstCall), "bash", "curl")}    ${codeFigure(typescriptSample(doc, firstCall), "typescript")}
  </div>
</section>
<section aria-labelledby="products">
  <h2 id="products">Products and operations</h2>
  <p>One base address serves every product under its own path prefix. These are the operations this reference describes; each link opens it in the API reference with samples in curl and TypeScript.</p>
  <div class="grid products">${products}</div>
</section>
<section aria-labelledby="guides">
  <h2 id="guides">Guides</h2>
  <div class="grid guides">${guideCards}</div>
</section>`;
}
