// Renders the API reference with Redoc from the description embedded in the page, in the theme of
// the system's colour scheme (prefers-color-scheme), and again in the other one when that changes.
(() => {
  const read = (id) => JSON.parse(document.getElementById(id).textContent);
  const spec = read("redoc-spec");
  const options = read("redoc-options");
  const themes = read("redoc-themes");
  const dark = window.matchMedia("(prefers-color-scheme: dark)");
  let container = document.getElementById("redoc");
  const render = () => {
    document.documentElement.dataset.redocTheme = dark.matches ? "dark" : "light";
    window.Redoc.init(spec, { ...options, theme: dark.matches ? themes.dark : themes.light }, container);
  };
  dark.addEventListener("change", () => {
    // A fresh element: Redoc renders into an empty one, and keeps the reader's place by the #hash.
    const fresh = document.createElement("div");
    fresh.id = "redoc";
    container.replaceWith(fresh);
    container = fresh;
    render();
  });
  render();
})();
