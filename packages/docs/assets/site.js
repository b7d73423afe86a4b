// The menu button of a narrow screen, a guide's "On this page" (folded on a phone, marking the
// section being read on a wide screen), and a copy button on every code block of the landing page
// and the guides.
(() => {
  const button = document.querySelector(".menu-button");
  const menu = button && document.getElementById(button.getAttribute("aria-controls"));
  if (button && menu) {
    const isOpen = () => button.getAttribute("aria-expanded") === "true";
    const setOpen = (open) => button.setAttribute("aria-expanded", String(open));
    button.addEventListener("click", () => setOpen(!isOpen()));
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !isOpen() || event.defaultPrevented) return;
      setOpen(false);
      button.focus();
    });
    document.addEventListener("pointerdown", (event) => {
      if (isOpen() && !menu.contains(event.target) && !button.contains(event.target)) setOpen(false);
    });
    // A link to a place on the same page (the reference's operations) leaves the menu open otherwise.
    menu.addEventListener("click", (event) => {
      if (event.target instanceof Element && event.target.closest("a")) setOpen(false);
    });
  }

  // The theme switch: the system's theme, or light or dark whatever the system says (assets/theme.js).
  const themeSwitch = document.querySelector(".theme-switch select");
  if (themeSwitch && window.siteTheme) {
    themeSwitch.value = window.siteTheme.choice();
    themeSwitch.addEventListener("change", () => window.siteTheme.set(themeSwitch.value));
  }

  const toc = document.querySelector(".on-this-page");
  if (toc) {
    const narrow = window.matchMedia("(max-width: 900px)");
    const details = toc.querySelector("details");
    // Folded on a phone, where it comes before the guide's text; always open beside it.
    if (details && narrow.matches) details.open = false;
    narrow.addEventListener("change", () => {
      if (details) details.open = !narrow.matches;
    });
    if (details)
      details.addEventListener("click", (event) => {
        if (event.target instanceof Element && event.target.closest("a") && narrow.matches)
          details.open = false;
      });
    const links = [...toc.querySelectorAll('a[href^="#"]')];
    const headings = links.map((a) => document.getElementById(decodeURIComponent(a.hash.slice(1))));
    const header = document.querySelector(".site-header");
    let queued = false;
    // The section being read: the last whose heading has reached the header (the last one once
    // the page is scrolled to its end, where a short last section never reaches it).
    const mark = () => {
      queued = false;
      const line = (header?.getBoundingClientRect().bottom ?? 0) + 24;
      const atEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      let current = atEnd ? headings.length - 1 : -1;
      if (!atEnd)
        headings.forEach((h, i) => {
          if (h && h.getBoundingClientRect().top <= line) current = i;
        });
      links.forEach((a, i) => {
        if (i === current) a.setAttribute("aria-current", "location");
        else a.removeAttribute("aria-current");
      });
    };
    window.addEventListener(
      "scroll",
      () => {
        if (queued) return;
        queued = true;
        window.requestAnimationFrame(mark);
      },
      { passive: true },
    );
    mark();
  }

  for (const figure of document.querySelectorAll("figure.code")) {
    const code = figure.querySelector("code");
    if (!code || !navigator.clipboard) continue;
    const copy = document.createElement("button");
    copy.type = "button";
    copy.className = "copy";
    copy.textContent = "Copy";
    copy.addEventListener("click", () => {
      navigator.clipboard.writeText(code.textContent ?? "").then(
        () => {
          copy.textContent = "Copied";
          setTimeout(() => {
            copy.textContent = "Copy";
          }, 1500);
        },
        () => {
          copy.textContent = "Select and copy";
        },
      );
    });
    figure.querySelector("figcaption")?.append(copy);
  }
})();
