// Every workspace package's hand-written sources (its `src/`), read from the tree the way
// pnpm-workspace.yaml names the packages (`spec` and `packages/*`), so a new package is checked by
// every house rule without being listed again in each rule's test.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/** Each package's `src/`, relative to the repository's root: `spec/src`, `packages/client/src`, … */
export const SOURCES = ["spec", ...readdirSync(join(root, "packages")).map((name) => join("packages", name))]
  .map((dir) => join(dir, "src"))
  .filter((dir) => existsSync(join(root, dir)))
  .sort();
