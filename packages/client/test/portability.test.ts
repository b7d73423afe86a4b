// The runtime must work wherever standard fetch exists (Node 20+, browsers, Deno, Bun): bundling
// it for the browser must need no Node built-in.
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

describe("runtime portability", () => {
  it.each(["index", "generated/products/cloud"])(
    "src/%s.ts bundles for the browser without Node built-ins",
    async (entry) => {
      const result = await build({
        entryPoints: [new URL(`../src/${entry}.ts`, import.meta.url).pathname],
        bundle: true,
        platform: "browser",
        format: "esm",
        write: false,
        logLevel: "silent",
      });
      expect(result.errors).toEqual([]);
      const code = result.outputFiles[0]?.text ?? "";
      expect(code.length).toBeGreaterThan(1000);
      expect(code).not.toMatch(
        /from\s*["']node:|require\(["'](node:)?(fs|http|https|net|os|path|crypto)["']\)/,
      );
    },
  );
});
