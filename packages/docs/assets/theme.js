// The colour theme: the system's (prefers-color-scheme) unless the reader chose light or dark with
// the header's switch, a choice remembered in localStorage. Loaded in the head, before the page
// paints, so a chosen theme never flashes the other one. `data-theme` on <html> carries a choice
// (site.css), code's colours included; the reference's Redoc renders again on the
// "site-themechange" event (assets/reference.js).
(() => {
  const root = document.documentElement;
  // Tells the stylesheet scripts run (without them the menu stays open and the search box is
  // hidden); set here, not inline in the page: the Content-Security-Policy runs no inline script.
  root.classList.add("js");
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  const KEY = "platform-api-docs-theme";
  const stored = () => {
    try {
      const value = window.localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "system";
    } catch {
      return "system";
    }
  };
  const apply = (choice) => {
    if (choice === "system") delete root.dataset.theme;
    else root.dataset.theme = choice;
  };
  window.siteTheme = {
    choice: stored,
    /** "light" or "dark": what the page shows now. */
    current: () => {
      const choice = stored();
      return choice === "system" ? (system.matches ? "dark" : "light") : choice;
    },
    set(choice) {
      try {
        if (choice === "system") window.localStorage.removeItem(KEY);
        else window.localStorage.setItem(KEY, choice);
      } catch {
        // Storage refused (a private window): the choice holds for this page only.
      }
      apply(choice);
      document.dispatchEvent(new CustomEvent("site-themechange"));
    },
  };
  system.addEventListener("change", () => {
    if (stored() === "system") document.dispatchEvent(new CustomEvent("site-themechange"));
  });
  apply(stored());
})();
