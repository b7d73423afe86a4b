// "Skip to content" (src/layout.ts): the focus moves to the page's main content, and the address
// stays as it is. Following the link's #hash instead would put its target in the address: on the
// reference, Redoc would scroll there and a copied link would name it rather than the operation.
// On the reference the focus goes to the section being read (assets/reference.js), so the next Tab
// reaches that section's own links.
(() => {
  const link = document.querySelector(".skip-link");
  if (!link) return;
  link.addEventListener("click", (event) => {
    const target = window.siteReference?.sectionBeingRead() ?? document.querySelector("main");
    if (!target) return;
    event.preventDefault();
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    // Marks it for site.css: a region with the focus, not a control, gets no focus ring.
    target.dataset.skipTarget = "";
    const box = target.getBoundingClientRect();
    target.focus({ preventScroll: box.bottom > 0 && box.top < window.innerHeight });
  });
})();
