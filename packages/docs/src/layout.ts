// The page shell shared by the landing page and the guides. Everything it loads sits under the
// site's own origin (assets/), so the site works offline.

export const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export interface PageLink {
  href: string;
  title: string;
  current?: boolean;
}

export interface PageOptions {
  title: string;
  /** Path from the page to the site root, "" or "../". */
  root: string;
  section: "home" | "guides" | "reference";
  main: string;
  /** Left-hand navigation (the guides); absent on the landing page. */
  sidebar?: PageLink[];
  description?: string;
  specVersion: string;
}

export function header(root: string, section: PageOptions["section"]): string {
  const link = (href: string, label: string, name: PageOptions["section"]) =>
    `<a href="${root}${href}"${section === name ? ' aria-current="page"' : ""}>${label}</a>`;
  return `<header class="site-header">
  <a class="brand" href="${root}index.html"><img src="${root}assets/logo.svg" alt="" width="28" height="28"><span>Platform API</span></a>
  <nav aria-label="Site">${link("guides/getting-started.html", "Guides", "guides")}${link("reference/index.html", "API reference", "reference")}</nav>
</header>`;
}

export function page(options: PageOptions): string {
  const { root } = options;
  const sidebar = options.sidebar
    ? `<nav class="guide-nav" aria-label="Guides"><p class="nav-title">Guides</p><ul>${options.sidebar
        .map(
          (l) =>
            `<li><a href="${l.href}"${l.current ? ' aria-current="page"' : ""}>${escapeHtml(l.title)}</a></li>`,
        )
        .join("")}</ul></nav>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
${options.description ? `<meta name="description" content="${escapeHtml(options.description)}">` : ""}
<link rel="icon" href="${root}assets/logo.svg" type="image/svg+xml">
<link rel="stylesheet" href="${root}assets/site.css">
<link rel="stylesheet" href="${root}assets/highlight.css">
</head>
<body class="section-${options.section}">
${header(root, options.section)}
<div class="layout${sidebar ? " with-sidebar" : ""}">
${sidebar}
<main id="content">
${options.main}
</main>
</div>
<footer class="site-footer">
  <p>Built from the platform API description, version ${escapeHtml(options.specVersion)}.
  <a href="${root}reference/openapi.json" download>Download the OpenAPI description</a>.</p>
</footer>
<script src="${root}assets/site.js" defer></script>
</body>
</html>
`;
}
