// Renders the API reference with Redoc from the description embedded in the page, in the site's
// theme (the system's colour scheme or the reader's choice, assets/theme.js), and again in the
// other one when that changes. A link into the reference keeps naming what it opened.
(() => {
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  const spec = read("redoc-spec");
  const options = read("redoc-options");
  const themes = read("redoc-themes");
  const isDark = () => window.siteTheme?.current() === "dark";
  let container = document.getElementById("redoc");

  const headerBottom = () => document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0;
  /** The section the address names (`#tag/Regions/operation/listRegions`, or Redoc's older `#operation/listRegions`). */
  const named = () => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const element = id && document.querySelector(`[data-section-id="${CSS.escape(id)}"]`);
    // The older form names a block inside the operation's section: the section is what to show.
    return element ? (element.parentElement?.closest('[data-section-id*="/operation/"]') ?? element) : null;
  };
  const onScreen = (element) => {
    const box = element.getBoundingClientRect();
    return box.bottom > headerBottom() + 1 && box.top < window.innerHeight / 2;
  };

  /**
   * The section the reader is at, where the skip link takes the focus (assets/skip-link.js): the one
   * the address names while it is on screen (an opened operation), else the innermost section across
   * the line under the header; at the top of the page, Redoc's content, past its sidebar.
   */
  const sectionBeingRead = () => {
    const element = named();
    if (element && onScreen(element)) return element;
    const line = headerBottom() + 2;
    let found = null;
    for (const section of document.querySelectorAll("#redoc [data-section-id]")) {
      const box = section.getBoundingClientRect();
      if (box.top <= line && box.bottom > line) found = section;
    }
    return found ?? document.querySelector("#redoc .api-content");
  };
  window.siteReference = { sectionBeingRead };

  // Redoc's scroll spy rewrites the address (replaceState) to whatever section tops the window,
  // which turned an opened `#operation/listRegions` into `#tag/Regions`: a copied link then named
  // the section, not the operation. While the section the address names is still on screen, the
  // rewrite is dropped; once the reader scrolls it away, the address follows the reading again.
  const replaceState = window.history.replaceState.bind(window.history);
  window.history.replaceState = (state, title, url) => {
    const element = named();
    if (url !== undefined && element && onScreen(element)) {
      const next = new URL(String(url), window.location.href);
      if (next.pathname === window.location.pathname && next.hash !== window.location.hash) return;
    }
    replaceState(state, title, url);
  };

  // Redoc scrolls to the linked section before the page above it has its final height; until the
  // reader scrolls, clicks or types, the named section is kept right under the header as it grows.
  let readerMoved = false;
  for (const type of ["wheel", "touchstart", "keydown", "pointerdown"])
    window.addEventListener(type, () => (readerMoved = true), { once: true, passive: true, capture: true });
  const place = () => {
    const element = !readerMoved && named();
    if (!element) return;
    // A pixel under the header's edge, as Redoc places it: its scroll spy then counts it as read.
    const offset = element.getBoundingClientRect().top - (headerBottom() - 1);
    if (Math.abs(offset) > 0.5) window.scrollBy(0, offset);
  };
  new ResizeObserver(place).observe(document.body);

  const render = () => {
    const dark = isDark();
    document.documentElement.dataset.redocTheme = dark ? "dark" : "light";
    window.Redoc.init(spec, { ...options, theme: dark ? themes.dark : themes.light }, container, place);
  };
  document.addEventListener("site-themechange", () => {
    if (isDark() === (document.documentElement.dataset.redocTheme === "dark")) return;
    // A fresh element: Redoc renders into an empty one, and keeps the reader's place by the #hash.
    const fresh = document.createElement("div");
    fresh.id = "redoc";
    container.replaceWith(fresh);
    container = fresh;
    render();
  });
  render();
})();
