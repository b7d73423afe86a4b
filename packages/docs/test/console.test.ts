// The "Try it" console's data (src/console.ts): one panel per operation, prefilled from the
// description as the samples are, with the token its security scheme takes; and what
// `pnpm docs:serve` adds for it (src/serve-console.ts): the simulator beside the site, named in
// console-target.json, the reference's wider connect-src. What the panels do with it is shown in a
// browser (browser-console.test.ts).
import { loadBundle, usesScheme } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import {
  CONSOLE_CONNECT_SRC,
  CONSOLE_CONTENT_SECURITY_POLICY,
  CONSOLE_TARGET_FILE,
  consoleData,
} from "../src/console.js";
import { CONTENT_SECURITY_POLICY } from "../src/layout.js";
import { exampleValue, listOperations } from "../src/operations.js";
import { serveWithConsole } from "../src/serve-console.js";
import { runServe, type ServeIo } from "../src/serve-program.js";
import { builtSite } from "./built-site.js";

const bundle = loadBundle();
const operations = listOperations(bundle);
const data = consoleData(bundle);
const schemes = (
  bundle.components as { securitySchemes: Record<string, { name: string; description: string }> }
).securitySchemes;

describe("the console's data", () => {
  it("has one entry per operation, with its method, path and the token its scheme takes", () => {
    expect(data.operations.map((o) => o.operationId)).toEqual(operations.map((o) => o.operationId));
    for (const op of operations) {
      const entry = data.operations.find((o) => o.operationId === op.operationId);
      expect(entry?.method).toBe(op.method.toUpperCase());
      expect(entry?.path).toBe(op.path);
      // The header its scheme names in the description itself, not the model's reading of it.
      expect(entry?.header).toBe(schemes[op.security[0] ?? ""]?.name);
      expect(entry?.token, op.key).toBe(usesScheme(op, "ResellerAPIKey") ? "reseller" : "client");
    }
    expect(data.operations.some((o) => o.token === "reseller")).toBe(true);
  });

  it("reads the token's prefix from the security scheme's description", () => {
    for (const entry of data.operations) {
      const op = operations.find((o) => o.operationId === entry.operationId);
      const description = schemes[op?.security[0] ?? ""]?.description ?? "";
      expect(description, entry.operationId).toContain(`\`${entry.header}: ${entry.prefix}<`);
    }
  });

  it("prefills path and required parameters with their examples, optional ones with their default", () => {
    for (const op of operations) {
      const entry = data.operations.find((o) => o.operationId === op.operationId);
      for (const p of op.parameters.filter((q) => q.in === "path" || q.in === "query")) {
        const shown = entry?.parameters.find((q) => q.name === p.name);
        const expected = p.in === "path" || p.required ? exampleValue(bundle, p) : p.default;
        expect(shown?.value, `${op.operationId} ${p.name}`).toBe(
          expected === undefined || typeof expected === "object" ? "" : String(expected),
        );
      }
      expect(entry?.body, op.operationId).toBe(
        op.hasBody ? JSON.stringify(op.bodyExample ?? {}, null, 2) : undefined,
      );
    }
  });

  it("widens only connect-src on the reference page", () => {
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toBe(
      CONTENT_SECURITY_POLICY.replace("connect-src 'self'", CONSOLE_CONNECT_SRC),
    );
  });
});

describe("docs:serve with the console's simulator", () => {
  it("starts the simulator on 127.0.0.1, names it in the target file, and stops both", async () => {
    const served = await serveWithConsole({ port: 0, dir: builtSite() });
    const { simulator, docs } = served;
    try {
      expect(simulator?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(simulator?.url).not.toBe(docs.url);
      const target = await fetch(`${docs.url}/${CONSOLE_TARGET_FILE}`);
      expect(target.headers.get("cache-control")).toBe("no-store");
      expect(await target.json()).toEqual({
        simulator: {
          url: simulator?.url,
          tokens: { client: simulator?.apiKey, reseller: simulator?.resellerApiKey },
        },
      });
      const reference = await fetch(`${docs.url}/reference/index.html`);
      expect(reference.headers.get("content-security-policy")).toBe(
        `${CONSOLE_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
      );
    } finally {
      await served.close();
    }
    await expect(fetch(`${simulator?.url}/iam/clients/me`)).rejects.toThrow();
    await expect(fetch(`${docs.url}/`)).rejects.toThrow();
  });

  it("serves the site alone with no simulator: the built file with no target", async () => {
    const served = await serveWithConsole({ port: 0, dir: builtSite(), simulator: false });
    try {
      expect(served.simulator).toBeUndefined();
      expect(await (await fetch(`${served.docs.url}/${CONSOLE_TARGET_FILE}`)).json()).toEqual({});
    } finally {
      await served.close();
    }
  });
});

/** The program's process, stood in for: what it prints, its exit code, its signal handlers. */
function fakeProcess() {
  const lines: string[] = [];
  const handlers = new Map<string, () => void>();
  let exited: (code: number) => void = () => {};
  const exit = new Promise<number>((resolve) => {
    exited = resolve;
  });
  const io: ServeIo = {
    log: (line) => lines.push(line),
    error: (line) => lines.push(`error: ${line}`),
    exit: (code) => exited(code),
    onSignal: (signal, handler) => handlers.set(signal, handler),
  };
  return { io, lines, handlers, exit };
}

// In-process, with the process stood in for: what is proved is the program's wiring (what it
// prints, that a signal closes both servers and exits 0); Node delivering SIGTERM to a handler
// needs no proof here, and the test command never builds the site a child process would serve.
describe("pnpm docs:serve (serve-program.ts)", () => {
  it("prints the site's and the simulator's addresses and stops both on SIGTERM", async () => {
    const fake = fakeProcess();
    const served = await runServe(["--port", "0"], fake.io, builtSite());
    expect(fake.lines).toEqual([
      `Docs at ${served?.docs.url}/ (Ctrl+C stops)`,
      `Simulator at ${served?.simulator?.url}: the reference's "Try it" panels call it with its default tokens (--no-simulator leaves it out)`,
    ]);
    expect([...fake.handlers.keys()].sort()).toEqual(["SIGINT", "SIGTERM"]);
    fake.handlers.get("SIGTERM")?.();
    expect(await fake.exit).toBe(0);
    await expect(fetch(`${served?.simulator?.url}/iam/clients/me`)).rejects.toThrow();
    await expect(fetch(`${served?.docs.url}/`)).rejects.toThrow();
  });

  it("serves the site alone with --no-simulator, and exits 2 on a port that is not one", async () => {
    const alone = fakeProcess();
    const served = await runServe(["--port", "0", "--no-simulator"], alone.io, builtSite());
    expect(alone.lines).toEqual([`Docs at ${served?.docs.url}/ (Ctrl+C stops)`]);
    alone.handlers.get("SIGINT")?.();
    expect(await alone.exit).toBe(0);
    const wrong = fakeProcess();
    expect(await runServe(["--port", "x"], wrong.io, builtSite())).toBeUndefined();
    expect(await wrong.exit).toBe(2);
    expect(wrong.lines).toEqual(['error: --port "x" is not a port; expected an integer from 0 to 65535.']);
  });
});
