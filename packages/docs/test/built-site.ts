// The site, built once per test worker for every file that only reads it (the browser tests, the
// search index): building it costs seconds of CPU (4.6 s the first time in a process), and the
// files share a worker's module graph (isolate: false). The build itself is tested in build.test.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../src/build.js";

let built: string | undefined;

/** The folder of a site built from the bundle; read it, never write to it. */
export function builtSite(): string {
  if (built) return built;
  const dir = mkdtempSync(join(tmpdir(), "docs-site-"));
  buildSite(dir);
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  built = dir;
  return dir;
}
