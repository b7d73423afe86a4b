// The site's one search box, over the guides and the API reference, on every page. Its index is
// built with the site (src/search-index.ts) into assets/search-index.js; the box loads it, with
// MiniSearch, the shared tokenizer and the shared choice of results and snippets
// (assets/search-results.js), from the site itself when first used: nothing leaves it. A result shows
// its title and a snippet with the matched words in <mark>, put in as text: never as HTML.
// Keyboard: "/" focuses the box, ↓ and ↑ choose a result, Enter opens it, Escape closes the list.
(() => {
  const box = document.querySelector(".site-search");
  if (!box) return;
  const input = box.querySelector("input");
  const panel = box.querySelector(".search-panel");
  const list = box.querySelector('[role="listbox"]');
  const status = box.querySelector(".search-status");
  const root = box.dataset.root ?? "";
  const onReference = box.dataset.section === "reference";
  const KINDS = { guide: "Guide", operation: "Operation", reference: "Reference" };
  let engine;
  let loading;
  let results = [];
  let active = -1;

  const script = (src) =>
    new Promise((resolve, reject) => {
      const element = document.createElement("script");
      element.src = `${root}${src}`;
      element.onload = resolve;
      element.onerror = () => reject(new Error(`The search could not load ${src}.`));
      document.head.append(element);
    });
  const load = () => {
    loading ??= Promise.all(
      [
        "assets/minisearch.cjs",
        "assets/search-terms.js",
        "assets/search-results.js",
        "assets/search-index.js",
      ].map(script),
    ).then(() => {
      const { options, index } = globalThis.platformSearchIndex;
      engine = globalThis.MiniSearch.loadJS(index, { ...options, tokenize: globalThis.platformSearchTerms });
    });
    return loading;
  };

  // A result's link from this page; on the reference page, an operation is just its #hash.
  const hrefOf = (id) =>
    onReference && id.startsWith("reference/index.html#")
      ? id.slice("reference/index.html".length)
      : `${root}${id}`;

  const options = () => [...list.children];
  const setActive = (index) => {
    active = index;
    options().forEach((option, i) => {
      option.setAttribute("aria-selected", String(i === index));
    });
    const current = options()[index];
    if (current) {
      input.setAttribute("aria-activedescendant", current.id);
      current.scrollIntoView({ block: "nearest" });
    } else input.removeAttribute("aria-activedescendant");
  };
  const show = (open) => {
    panel.hidden = !open;
    input.setAttribute("aria-expanded", String(open));
    if (!open) setActive(-1);
  };

  // Text parts as text nodes, the matched ones in <mark>: the index never reaches innerHTML.
  const marked = (element, parts) => {
    element.replaceChildren(
      ...parts.map((part) => {
        if (!part.mark) return document.createTextNode(part.text);
        const mark = document.createElement("mark");
        mark.textContent = part.text;
        return mark;
      }),
    );
    return element;
  };

  const render = () => {
    const query = input.value.trim();
    if (!query || !engine) {
      show(false);
      return;
    }
    results = globalThis.platformSearchResults.find(engine, query);
    list.replaceChildren(
      ...results.map((result, i) => {
        const option = document.createElement("a");
        option.id = `site-search-option-${i}`;
        option.className = "search-result";
        option.href = hrefOf(result.id);
        option.tabIndex = -1;
        option.setAttribute("role", "option");
        option.setAttribute("aria-selected", "false");
        const kind = document.createElement("span");
        kind.className = `search-kind ${result.kind}`;
        kind.textContent = KINDS[result.kind] ?? result.kind;
        const title = marked(document.createElement("span"), result.titleParts);
        title.className = "search-title";
        const where = document.createElement("span");
        where.className = "search-where";
        where.textContent = result.context;
        option.append(kind, title, where);
        if (result.snippetParts.length > 0) {
          const snippet = marked(document.createElement("span"), result.snippetParts);
          snippet.className = "search-snippet";
          option.append(snippet);
        }
        option.addEventListener("click", () => show(false));
        return option;
      }),
    );
    status.textContent =
      results.length === 0
        ? `No results for “${query}”.`
        : `${results.length} result${results.length === 1 ? "" : "s"}; ↓ ↑ to choose, Enter to open.`;
    setActive(-1);
    show(true);
  };
  const update = () => {
    load().then(render, (error) => {
      status.textContent = error.message;
      show(true);
    });
  };

  input.addEventListener("focus", () => {
    load().catch(() => {});
    if (input.value.trim()) update();
  });
  input.addEventListener("input", update);
  input.addEventListener("keydown", (event) => {
    const count = options().length;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (panel.hidden) {
        update();
        return;
      }
      if (count === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive(active < 0 ? (step > 0 ? 0 : count - 1) : Math.min(count - 1, Math.max(0, active + step)));
    } else if (event.key === "Enter") {
      const chosen = options()[Math.max(active, 0)];
      if (!chosen || panel.hidden) return;
      event.preventDefault();
      show(false);
      window.location.href = chosen.href;
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (!panel.hidden) show(false);
      else input.value = "";
    }
  });
  box.addEventListener("focusout", (event) => {
    if (!box.contains(event.relatedTarget)) show(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (
      target instanceof HTMLElement &&
      (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
    )
      return;
    event.preventDefault();
    input.focus();
  });
})();
