// A copy button on every code block of the landing page and the guides.
(() => {
  for (const figure of document.querySelectorAll("figure.code")) {
    const code = figure.querySelector("code");
    if (!code || !navigator.clipboard) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.addEventListener("click", () => {
      navigator.clipboard.writeText(code.textContent ?? "").then(
        () => {
          button.textContent = "Copied";
          setTimeout(() => {
            button.textContent = "Copy";
          }, 1500);
        },
        () => {
          button.textContent = "Select and copy";
        },
      );
    });
    figure.querySelector("figcaption")?.append(button);
  }
})();
