// What Redoc renders, made usable by keyboard and told right to assistive technology where neither
// its options nor CSS can: its boxes that scroll sideways, the structure of its sidebar and the
// levels of its headings. Redoc renders in the page, again on
// a theme change (assets/reference.js) and as its sidebar opens and closes, so the repairs follow
// every change of the reference's <main>.
(() => {
  const main = document.querySelector("main");
  if (!main) return;

  /**
   * Redoc's sidebar items are `menuitem`s named by an `aria-label`. An operation's shows its method
   * beside the name ("get List regions" named "List regions"): its name is its text, so what a
   * reader sees is what a screen reader says and what voice control answers to. A product's or a
   * tag's item holds its open list of items, which became part of the item (a menu item "Cloud" of
   * every operation's text): as in the WAI-ARIA menu pattern, the item is its label's text (a
   * `<label>` may take no role), and the list sits beside it.
   */
  const repairMenuItem = (item) => {
    const label = item.querySelector(":scope > label > span");
    const list = item.querySelector(":scope > ul");
    if (!list || !label) {
      item.removeAttribute("aria-label");
      return;
    }
    if (item.getAttribute("role") !== "none") {
      item.setAttribute("role", "none");
      item.removeAttribute("tabindex");
      item.removeAttribute("aria-label");
      label.setAttribute("role", "menuitem");
      label.setAttribute("tabindex", "0");
    }
    // Redoc writes the item's state on the item as it opens and closes: it belongs to the label.
    const expanded = item.getAttribute("aria-expanded");
    if (expanded !== null) {
      label.setAttribute("aria-expanded", expanded);
      item.removeAttribute("aria-expanded");
    }
  };

  /**
   * Redoc's `h5`s ("Authorizations", "query Parameters", "Response Schema") follow an operation's
   * `h2` or its "Responses" `h3`: two or three levels skipped. Each takes the level below the
   * heading it belongs to.
   */
  const repairHeadingLevels = () => {
    let level = 1;
    for (const heading of main.querySelectorAll(".api-content :is(h1, h2, h3, h4, h5)")) {
      if (heading.tagName !== "H5") {
        level = Number(heading.tagName.slice(1));
        continue;
      }
      const below = String(level + 1);
      if (heading.getAttribute("aria-level") !== below) heading.setAttribute("aria-level", below);
    }
  };

  /**
   * A sample's code and a table written in a description (Redoc gives its own tables a class)
   * scroll sideways in their own box on a phone: each takes focus, as the guides' code blocks do
   * (src/code-figure.ts), so a keyboard can scroll it.
   */
  const focusableScrollBoxes = () => {
    for (const box of main.querySelectorAll(".api-content :is(pre, table:not([class]))"))
      if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
  };

  const repair = () => {
    queued = false;
    focusableScrollBoxes();
    for (const item of main.querySelectorAll(
      '.menu-content li[role="menuitem"], .menu-content li[role="none"]',
    ))
      repairMenuItem(item);
    repairHeadingLevels();
  };
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    queueMicrotask(repair);
  }).observe(main, { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-expanded"] });
})();
