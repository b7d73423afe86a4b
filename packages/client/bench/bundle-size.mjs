// Runtime bundle size (minified + gzip, openapi-fetch included, types excluded) of a program that
// makes calls, and of one that also uses the helpers, against openapi-fetch alone, with the same
// bundler settings.
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** The goal for a program that makes calls (#39): 12 kB gzip, openapi-fetch included. */
export const BUNDLE_GOAL_BYTES = 12 * 1024;

/** The bundle of `contents` (an entry module's source, resolved from `resolveDir`), with esbuild's metafile. */
export async function bundle(contents, resolveDir, loader = "js") {
  return build({
    stdin: { contents, resolveDir, loader },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    write: false,
    metafile: true,
    logLevel: "silent",
  });
}

async function sizeOf(contents, resolveDir) {
  const result = await bundle(contents, resolveDir);
  const code = result.outputFiles[0].contents;
  return { minified: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

export async function measureBundleSize() {
  const dir = new URL("..", import.meta.url).pathname;
  const ours = await sizeOf('export { createClient } from "./dist/index.js";', dir);
  // The helpers are functions of their own: a program that walks lists and waits for tasks adds them.
  const withHelpers = await sizeOf(
    'export { createClient, paginate, waitForTask, waitForTasks } from "./dist/index.js";',
    dir,
  );
  const openapiFetch = await sizeOf('export { default } from "openapi-fetch";', dir);
  return { ours, withHelpers, openapiFetch };
}
