// The menu button of a narrow screen, and a copy button on every code block of the landing page
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
