#!/usr/bin/env node
// `pnpm run docs`: builds the site into packages/docs/dist.
import { relative } from "node:path";
import { buildSite } from "./build.js";

try {
  const result = buildSite();
  console.log(
    `Docs: ${result.pages.length} pages, ${result.operations} operations, ${result.unspecifiedNotes} "not specified" notes -> ${relative(process.cwd(), result.outDir) || "."}/index.html`,
  );
} catch (error) {
  console.error(`Docs build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
