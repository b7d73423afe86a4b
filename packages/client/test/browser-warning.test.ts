// The one-time warning that an API key is used in a browser page. A page is simulated by a
// stubbed `document` global; each test imports the client afresh, since the warning is given once
// per process (a module's state).
import { describe, expect, it, vi } from "vitest";
import { KEY } from "./scripted-server.js";

async function freshClient() {
  vi.resetModules();
  const { createClient } = await import("../src/index.js");
  const { BROWSER_WARNING } = await import("../src/browser-warning.js");
  return { createClient, BROWSER_WARNING };
}

const options = { apiKey: KEY, baseUrl: "http://127.0.0.1:9" };

describe("a key used in a browser page", () => {
  it("is warned of once per process, through the logger, saying what to do", async () => {
    vi.stubGlobal("document", {});
    const { createClient, BROWSER_WARNING } = await freshClient();
    const warnings: string[] = [];
    const logger = { warn: (line: string) => warnings.push(line) };
    createClient({ ...options, logger });
    createClient({ ...options, logger });
    expect(warnings).toEqual([BROWSER_WARNING]);
    expect(BROWSER_WARNING).toMatch(/server/);
    expect(BROWSER_WARNING).toMatch(/dangerouslyAllowBrowser: true/);
  });

  it("is warned of on the console when no logger is given", async () => {
    vi.stubGlobal("document", {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { createClient, BROWSER_WARNING } = await freshClient();
    createClient(options);
    expect(warn.mock.calls).toEqual([[BROWSER_WARNING]]);
  });

  it("is not warned of with dangerouslyAllowBrowser: true", async () => {
    vi.stubGlobal("document", {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { createClient } = await freshClient();
    createClient({ ...options, dangerouslyAllowBrowser: true });
    expect(warn).not.toHaveBeenCalled();
  });

  it("is not warned of outside a page (no document: Node, workers)", async () => {
    expect("document" in globalThis).toBe(false);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { createClient } = await freshClient();
    createClient(options);
    expect(warn).not.toHaveBeenCalled();
  });
});
