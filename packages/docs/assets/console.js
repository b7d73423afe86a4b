// The reference's "Try it" console: under each operation's heading, a panel prefilled from the
// description (src/console.ts embeds the data) that sends the call with `fetch` and shows the
// answer's status, headers and body. It calls the simulator `pnpm docs:serve` started beside the
// site (console-target.json names it), else the address the reader types.
//
// The tokens live in this block's memory only: never in localStorage, sessionStorage, a cookie,
// IndexedDB or the address, never written to the console, and sent only in the header the
// operation's security scheme names. A reload forgets them. A block, not a function around it:
// its names are constants (no function declarations, which a browser hoists out of a block), kept
// inside it, out of the page's other scripts' way.
{
  const data = JSON.parse(document.getElementById("try-it-data").textContent);
  const byId = new Map(data.operations.map((op) => [op.operationId, op]));
  const target = { url: data.defaultBaseUrl, tokens: { client: "", reseller: "" }, simulator: false };
  const TOKEN_LABEL = { client: "API token", reseller: "Reseller admin token" };

  const element = (tag, attributes = {}, children = []) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    for (const child of children) node.append(child);
    return node;
  };
  const field = (id, label, input) => {
    input.id = id;
    return element("div", { class: "try-it-field" }, [element("label", { for: id }, [label]), input]);
  };

  /** The reader's address and token for this operation: shared by every panel, in memory. */
  const targetFields = (op, id) => {
    const url = element("input", {
      type: "url",
      spellcheck: "false",
      autocomplete: "off",
      "data-target": "url",
    });
    url.value = target.url;
    url.addEventListener("input", () => {
      target.url = url.value;
    });
    const token = element("input", {
      type: "password",
      spellcheck: "false",
      autocomplete: "off",
      "data-target": "token",
    });
    token.value = target.tokens[op.token];
    token.addEventListener("input", () => {
      target.tokens[op.token] = token.value;
    });
    const note = target.simulator ? " (the simulator's, filled in)" : "";
    return element("fieldset", { class: "try-it-target" }, [
      element("legend", {}, ["Target"]),
      field(`${id}-url`, "Base URL", url),
      field(`${id}-token`, `${TOKEN_LABEL[op.token]}${note}`, token),
    ]);
  };

  const parameterFields = (op, id) => {
    if (op.parameters.length === 0) return [];
    return [
      element("fieldset", { class: "try-it-parameters" }, [
        element("legend", {}, ["Parameters"]),
        ...op.parameters.map((p, i) => {
          const input = element("input", {
            type: "text",
            spellcheck: "false",
            "data-name": p.name,
            "data-in": p.in,
          });
          input.value = p.value;
          if (p.required) input.required = true;
          return field(`${id}-p${i}`, `${p.name} (${p.in}${p.required ? ", required" : ""})`, input);
        }),
      ]),
    ];
  };

  /** The call the panel's fields describe, or a sentence saying what is missing. */
  const request = (op, panel) => {
    let path = op.path;
    const query = new URLSearchParams();
    for (const input of panel.querySelectorAll("input[data-name]")) {
      const { name, in: place } = input.dataset;
      if (place === "path") {
        if (input.value === "") return `Fill in the path parameter ${name}.`;
        path = path.replace(`{${name}}`, encodeURIComponent(input.value));
      } else if (input.value !== "") query.append(name, input.value);
    }
    const base = panel.querySelector('[data-target="url"]').value.trim().replace(/\/+$/, "");
    if (!/^https?:\/\/./.test(base)) return "Type the base URL of the API, e.g. https://api.example.com.";
    const headers = { [op.header]: `${op.prefix}${panel.querySelector('[data-target="token"]').value}` };
    const init = {
      method: op.method,
      headers,
      cache: "no-store",
      credentials: "omit",
      referrerPolicy: "no-referrer",
    };
    const textarea = panel.querySelector("textarea");
    if (textarea) {
      try {
        init.body = JSON.stringify(JSON.parse(textarea.value));
      } catch {
        return "The body is not valid JSON.";
      }
      headers["Content-Type"] = "application/json";
    }
    const search = query.toString();
    return { url: `${base}${path}${search ? `?${search}` : ""}`, init };
  };

  /** The status line, a live region: a screen reader hears "200 OK", not the whole answer. */
  const say = (status, text, kind) => {
    status.textContent = text;
    status.className = `try-it-status${kind ? ` try-it-${kind}` : ""}`;
  };

  const send = async (op, panel, status, answer) => {
    const call = request(op, panel);
    answer.replaceChildren();
    if (typeof call === "string") return say(status, call, "problem");
    say(status, `Calling ${op.method} ${call.url} …`);
    let response;
    let text;
    try {
      response = await fetch(call.url, call.init);
      text = await response.text();
    } catch (error) {
      const origin = new URL(call.url).origin;
      const problem = `No answer from ${origin}: ${error.message}. Is it running, and does it allow calls from this page (CORS)?`;
      return say(status, problem, "problem");
    }
    say(status, `${response.status} ${response.statusText}`.trim(), response.ok ? "ok" : "error");
    showAnswer(answer, response, text);
  };

  const showAnswer = (answer, response, text) => {
    let body = text;
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: shown as it came.
    }
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
    answer.replaceChildren(
      element("p", { class: "try-it-caption" }, ["Headers"]),
      element("pre", { class: "try-it-headers" }, [headers]),
      element("p", { class: "try-it-caption" }, ["Body"]),
      element("pre", { class: "try-it-body" }, [body || "(empty)"]),
    );
  };

  /** The panel's fields, built when the reader first opens it (the page has dozens of operations). */
  const fill = (op, details) => {
    if (details.querySelector(".try-it-panel")) return;
    const id = `try-it-${op.operationId}`;
    const status = element("p", { class: "try-it-status", role: "status" });
    const answer = element("div", { class: "try-it-answer" });
    const button = element("button", { type: "button", class: "try-it-send" }, [`Send ${op.method} request`]);
    const body =
      op.body === undefined
        ? []
        : [field(`${id}-body`, "Body (JSON)", element("textarea", { rows: "8", spellcheck: "false" }))];
    const panel = element("div", { class: "try-it-panel" }, [
      targetFields(op, id),
      ...parameterFields(op, id),
      ...body,
      button,
      status,
      answer,
    ]);
    const textarea = panel.querySelector("textarea");
    if (textarea) textarea.value = op.body;
    button.addEventListener("click", () => void send(op, panel, status, answer));
    details.append(panel);
  };

  const addPanel = (section) => {
    const operationId = section.dataset.sectionId.split("/operation/")[1];
    const op = byId.get(operationId);
    const heading = section.querySelector("h2");
    if (!op || !heading || section.querySelector(".try-it")) return;
    const details = element("details", { class: "try-it" }, [element("summary", {}, ["Try it"])]);
    details.addEventListener("toggle", () => {
      if (!details.open) return;
      const panel = details.querySelector(".try-it-panel");
      if (!panel) return void ready.then(() => fill(op, details));
      // What the reader typed in another panel since: the address and tokens are shared.
      panel.querySelector('[data-target="url"]').value = target.url;
      panel.querySelector('[data-target="token"]').value = target.tokens[op.token];
    });
    // Under the heading and the operation's path: the panel belongs to the operation's top.
    (heading.nextElementSibling ?? heading).after(details);
  };

  // Redoc renders the operations, and renders them again in a fresh container when the theme
  // changes (assets/reference.js): each time the page settles, every operation gets its panel.
  let pending = false;
  const addPanels = () => {
    pending = false;
    for (const section of document.querySelectorAll('#redoc [data-section-id*="/operation/"]'))
      addPanel(section);
  };
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(addPanels);
  }).observe(document.body, { childList: true, subtree: true });

  // Served by `pnpm docs:serve` with its simulator: the panels call it with its tokens. A static
  // copy answers the file with no target; a page opened from disk cannot fetch it at all.
  // A panel opened first waits for it.
  const served = window.location.protocol === "http:" || window.location.protocol === "https:";
  const ready = !served
    ? Promise.resolve()
    : fetch("../console-target.json", { cache: "no-store" })
        .then((response) => (response.ok ? response.json() : {}))
        .then(({ simulator }) => {
          if (!simulator) return;
          target.url = simulator.url;
          target.tokens = { ...simulator.tokens };
          target.simulator = true;
        })
        .catch(() => {});
}
