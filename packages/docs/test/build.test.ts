// The built reference (browser tests come with the docs issue): it names every operation of the
// description and loads nothing from another origin.
import { readFileSync } from "node:fs";
import { loadBundle } from "@platform-api/spec";
import { describe, expect, it } from "vitest";

const html = readFileSync(new URL("../dist/index.html", import.meta.url), "utf8");
const doc = loadBundle() as {
  paths: Record<string, Record<string, { summary?: string; operationId?: string }>>;
};
const operations = Object.values(doc.paths).flatMap((item) =>
  Object.entries(item)
    .filter(([method]) => ["get", "put", "post", "delete", "patch"].includes(method))
    .map(([, op]) => op),
);

describe("built API reference", () => {
  it.each(operations.map((op) => [op.operationId, op.summary] as const))("lists %s (%s)", (_id, summary) => {
    expect(summary).toBeTruthy();
    expect(html.includes(String(summary)), `the page lists "${summary}"`).toBe(true);
  });

  it("loads its scripts and styles from its own origin only", () => {
    const external = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1] ?? "")
      .filter((url) => /^(https?:)?\/\//.test(url));
    expect(external).toEqual([]);
    expect(html.includes('from "./redoc.standalone.js"'), "the page imports the local Redoc bundle").toBe(
      true,
    );
    expect(/https?:\/\/cdn\./.test(html), "the page references a CDN").toBe(false);
  });

  it("serves the Redoc bundle beside the page with a matching integrity hash", async () => {
    const { createHash } = await import("node:crypto");
    const js = readFileSync(new URL("../dist/redoc.standalone.js", import.meta.url));
    const integrity = `sha384-${createHash("sha384").update(js).digest("base64")}`;
    const declared = [...html.matchAll(/integrity="([^"]+)"/g)].map((m) => m[1]);
    expect(declared.length).toBeGreaterThan(0);
    for (const value of declared) expect(value).toBe(integrity);
  });
});
