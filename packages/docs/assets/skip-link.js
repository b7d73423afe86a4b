// "Skip to content" (src/layout.ts): the focus moves to the page's main content, and the address
// stays as it is. Following the link's #hash instead would put its target in the address: on the
// reference, Redoc would scroll there and a copied link would name it rather than the operation.
// On the reference the target is the section being read (an opened operation, kept right under the
// header by assets/reference.js), so the next Tab reaches that section's own links; at the top of
// the page, Redoc's content, past its sidebar.
(() => {
  const link = document.querySelector(".skip-link");
  if (!link) return;

  /** The innermost of Redoc's sections that crosses the line just under the header. */
  const sectionBeingRead = (main) => {
    const line = (document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0) + 2;
    let found = null;
    for (const section of main.querySelectorAll("[data-section-id]")) {
      const box = section.getBoundingClientRect();
      if (box.top <= line && box.bottom > line) found = section;
    }
    return found;
  };

  link.addEventListener("click", (event) => {
    const main = document.querySelector("main");
    if (!main) return;
    event.preventDefault();
    const target = sectionBeingRead(main) ?? main.querySelector(".api-content") ?? main;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    // Marks it for site.css: a region with the focus, not a control, gets no focus ring.
    target.dataset.skipTarget = "";
    const box = target.getBoundingClientRect();
    target.focus({ preventScroll: box.bottom > 0 && box.top < window.innerHeight });
  });
})();
