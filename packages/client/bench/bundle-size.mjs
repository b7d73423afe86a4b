// Runtime bundle size (minified + gzip, openapi-fetch included, types excluded), against
// openapi-fetch alone, with the same bundler settings.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

async function sizeOf(contents, resolveDir) {
  const result = await build({
    stdin: { contents, resolveDir, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

export async function measureBundleSize() {
  const dir = new URL("..", import.meta.url).pathname;
  const ours = await sizeOf('export { createClient } from "./dist/index.js";', dir);
  const openapiFetch = await sizeOf('export { default } from "openapi-fetch";', dir);
  return { ours, openapiFetch };
}
