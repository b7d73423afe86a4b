// Renders the API reference with Redoc from the description embedded in the page.
(() => {
  const spec = JSON.parse(document.getElementById("redoc-spec").textContent);
  const options = JSON.parse(document.getElementById("redoc-options").textContent);
  window.Redoc.init(spec, options, document.getElementById("redoc"));
})();
