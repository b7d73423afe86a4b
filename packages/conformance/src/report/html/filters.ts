// The page's filters: by status, operation and check, and a search box. They need a script; the
// page's Content-Security-Policy allows this one script alone, by its hash (`script-src
// 'sha256-…'`), and nothing else to run or load. The form starts hidden and the script shows it,
// so with script off the page shows everything and no control that does nothing.

import { createHash } from "node:crypto";

/**
 * Shows the copy buttons and copies a curl command on a click; hides what the form does not select: elements with data-filter, and the rows of the grid and of
 * the latency table by operation; a heading's data-shown-count says how many of its section show.
 */
export const FILTER_SCRIPT = `(function () {
  // Each copy button (hidden without script) copies the command in its box.
  Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var code = button.parentNode.querySelector("pre code");
      if (!code || !navigator.clipboard) { button.textContent = "Select the text to copy it"; return; }
      navigator.clipboard.writeText(code.textContent).then(
        function () { button.textContent = "Copied"; },
        function () { button.textContent = "Select the text to copy it"; }
      );
    });
  });
  var form = document.getElementById("filters");
  if (!form) return;
  form.hidden = false;
  var items = Array.prototype.slice.call(document.querySelectorAll("[data-filter]"));
  var rows = Array.prototype.slice.call(document.querySelectorAll("#operations tr.operation, #latency tr[data-operation]"));
  var count = document.getElementById("filter-count");
  var total = document.querySelectorAll("[data-filter].result").length;
  function apply() {
    var statuses = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[name=status]:checked"), function (input) {
      statuses[input.value] = true;
    });
    var operation = form.elements.operation.value;
    var check = form.elements.check.value;
    var words = form.elements.search.value.trim().toLowerCase();
    var shown = 0;
    items.forEach(function (el) {
      var ok = statuses[el.dataset.status] === true &&
        (!operation || (" " + el.dataset.operations + " ").indexOf(" " + operation + " ") >= 0) &&
        (!check || el.dataset.check === check) &&
        (!words || ((el.dataset.search || "") + " " + el.textContent).toLowerCase().indexOf(words) >= 0);
      el.hidden = !ok;
      if (ok && el.classList.contains("result")) shown++;
    });
    rows.forEach(function (row) {
      row.hidden = operation !== "" && row.dataset.operation !== operation;
    });
    count.textContent = shown + " of " + total + " results shown";
    // A section heading's count says what the filter leaves of that section.
    Array.prototype.forEach.call(document.querySelectorAll("[data-shown-count]"), function (el) {
      var section = el.closest("section");
      el.textContent = section ? section.querySelectorAll(el.dataset.shownCount + ":not([hidden])").length : el.textContent;
    });
  }
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  apply();
})();`;

/** The CSP source that lets FILTER_SCRIPT, and only it, run. */
export function scriptSource(): string {
  return `'sha256-${createHash("sha256").update(FILTER_SCRIPT, "utf8").digest("base64")}'`;
}
