// `pnpm docs:serve`: the built site on 127.0.0.1, with clear errors for what it cannot do.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTENT_SECURITY_POLICY } from "../src/layout.js";
import { serveDocs } from "../src/serve.js";

describe("serveDocs", () => {
  it("serves a folder on the loopback address and answers 404 for what is not there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-serve-"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>x</title>");
    const server = await serveDocs({ port: 0, dir });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain("<title>x</title>");
      // The pages carry the policy too; the header adds what a <meta> cannot say (frame-ancestors).
      expect(page.headers.get("content-security-policy")).toBe(
        `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
      );
      expect((await fetch(`${server.url}/missing.html`)).status).toBe(404);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says to build first when there is no site", async () => {
    await expect(serveDocs({ port: 0, dir: join(tmpdir(), "no-such-docs") })).rejects.toThrow(
      /run `pnpm run docs` first/,
    );
  });

  it("refuses a port that is not one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-serve-"));
    writeFileSync(join(dir, "index.html"), "x");
    await expect(serveDocs({ port: 70000, dir })).rejects.toThrow(/expected an integer from 0 to 65535/);
    rmSync(dir, { recursive: true, force: true });
  });
});
