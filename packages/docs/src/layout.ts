// The page shell shared by the landing page and the guides. Everything it loads sits under the
// site's own origin (assets/), so the site works offline.

/**
 * What every page may load and run: its own scripts, styles, images and fonts, nothing from another
 * origin and no inline script, so that text put on a page (a changeset, the description) can neither
 * run nor call out should it ever get past the escaping, and the site stays offline. Redoc
 * (styled-components) writes <style> elements and style attributes as it renders: styles allow
 * inline. Redoc's own icons are `data:` images, as is the empty image that stands for its CDN logo
 * (src/build.ts): images allow `data:`, which loads nothing and runs nothing. In each page's head
 * (the site is opened from disk too); `pnpm docs:serve` also sends it.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

/** The policy as a page's first element after its charset: it governs only what follows it. */
export const cspMeta = () =>
  `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">`;

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
  section: "home" | "guides" | "reference" | "changelog";
  main: string;
  /** The guides, in order: the menu lists them on every page. */
  guides: PageLink[];
  /** Left-hand navigation (the guides) on a wide screen; absent on the landing page. */
  sidebar?: boolean;
  description?: string;
  specVersion: string;
  /** The page's "Last updated" line in the footer (src/last-updated.ts); "" when unknown. */
  lastUpdated?: string;
}

/** The guides as every page's menu lists them (on a phone the menu holds the site's navigation). */
export interface SiteNav {
  guides: PageLink[];
  /**
   * The reference page's introduction sections and operations by product: on a phone the site's
   * menu lists them, in place of a second, floating menu button of Redoc's own.
   */
  reference?: { name: string; links: PageLink[] }[];
}

/** The reference's `<main>`: not `#content`, whose styles are for the site's own markup, not Redoc's. */
export const REFERENCE_MAIN_ID = "reference";

/**
 * "Skip to content", the first thing a Tab reaches on every page (WCAG 2.4.1): past the header's
 * dozen stops, and on the reference past Redoc's sidebar (32 Tabs from an operation's link to its
 * text). Its target is the page's main content; with scripts (assets/skip-link.js) it takes the
 * focus there without changing the address, and on the reference to the section being read.
 */
export function skipLink(section: PageOptions["section"]): string {
  return `<a class="skip-link" href="#${section === "reference" ? REFERENCE_MAIN_ID : "content"}">Skip to content</a>`;
}

/**
 * The site's header, after the skip link: the brand, the search box over the guides and the
 * reference (assets/search.js), and the site's navigation. On a narrow screen the navigation, with the list of guides, sits
 * behind the menu button (assets/site.js); on a wide one it is the header's row of links.
 */
export function header(root: string, section: PageOptions["section"], nav: SiteNav): string {
  const link = (href: string, label: string, name: PageOptions["section"]) =>
    `<a href="${root}${href}"${section === name ? ' aria-current="page"' : ""}>${label}</a>`;
  const guides = nav.guides
    .map(
      (l) =>
        `<li><a href="${root}guides/${l.href}"${l.current ? ' aria-current="page"' : ""}>${escapeHtml(l.title)}</a></li>`,
    )
    .join("");
  return `${skipLink(section)}
<header class="site-header">
  <a class="brand" href="${root}index.html"><img src="${root}assets/logo.svg" alt="" width="28" height="28"><span>Platform API</span></a>
  <div class="site-search" role="search" data-root="${root}" data-section="${section}">
    <input id="site-search" type="search" role="combobox" aria-label="Search the guides and the API reference" placeholder="Search docs" aria-autocomplete="list" aria-expanded="false" aria-controls="site-search-results" autocomplete="off" spellcheck="false">
    <kbd class="search-key" aria-hidden="true">/</kbd>
    <div class="search-panel" hidden>
      <div id="site-search-results" role="listbox" aria-label="Search results"></div>
      <p class="search-status" role="status"></p>
    </div>
  </div>
  <button class="menu-button" type="button" aria-expanded="false" aria-controls="site-menu"><svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20"><path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg><span>Menu</span></button>
  <div class="site-menu" id="site-menu">
    <nav class="site-nav" aria-label="Site">${link("guides/getting-started.html", "Guides", "guides")}${link("reference/index.html", "API reference", "reference")}${link("changelog.html", "Changelog", "changelog")}</nav>
    <label class="theme-switch"><span>Theme</span><select aria-label="Colour theme"><option value="system">System</option><option value="light">Light</option><option value="dark">Dark</option></select></label>
    ${(nav.reference ?? [])
      .map(
        (group) =>
          `<nav class="menu-reference" aria-label="${escapeHtml(group.name)} (menu)"><p class="nav-title">${escapeHtml(group.name)}</p><ul>${group.links
            .map((l) => `<li><a href="${escapeHtml(l.href)}">${escapeHtml(l.title)}</a></li>`)
            .join("")}</ul></nav>`,
      )
      .join("")}
    <nav class="menu-guides" aria-label="Guides (menu)"><p class="nav-title">Guides</p><ul>${guides}</ul></nav>
  </div>
</header>`;
}

/**
 * The head's lines every page shares: the colour schemes it supports, and assets/theme.js, which
 * tells the stylesheet scripts run (without them, the menu stays open and the search box is hidden)
 * and applies the theme the reader chose, before the page paints; after any stylesheet it switches.
 */
export function sharedHead(root: string): string {
  return `<meta name="color-scheme" content="light dark">
<link rel="icon" href="${root}assets/logo.svg" type="image/svg+xml">
<link rel="stylesheet" href="${root}assets/site.css">
<script src="${root}assets/theme.js"></script>`;
}

/** The scripts every page ends with: the menu, copy buttons, the skip link and the search. */
export function sharedScripts(root: string): string {
  return `<script src="${root}assets/site.js" defer></script>
<script src="${root}assets/skip-link.js" defer></script>
<script src="${root}assets/search.js" defer></script>`;
}

export function page(options: PageOptions): string {
  const { root } = options;
  // The guide list on a wide screen; on a narrow one the same list is in the header's menu.
  const sidebar = options.sidebar
    ? `<nav class="guide-nav" aria-label="Guides"><p class="nav-title">Guides</p><ul>${options.guides
        .map(
          (l) =>
            `<li><a href="${root}guides/${l.href}"${l.current ? ' aria-current="page"' : ""}>${escapeHtml(l.title)}</a></li>`,
        )
        .join("")}</ul></nav>`
    : "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${cspMeta()}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
${options.description ? `<meta name="description" content="${escapeHtml(options.description)}">` : ""}
${sharedHead(root)}
</head>
<body class="section-${options.section}">
${header(root, options.section, { guides: options.guides })}
<div class="layout${sidebar ? " with-sidebar" : ""}">
<main id="content">
${options.main}
</main>
${sidebar}
</div>
<footer class="site-footer">
  <p>Built from the platform API description, version ${escapeHtml(options.specVersion)}.
  <a href="${root}reference/openapi.json" download>Download the OpenAPI description</a>.</p>
  ${options.lastUpdated ?? ""}
</footer>
${sharedScripts(root)}
</body>
</html>
`;
}
