// The path of the project's own Redocly CLI (the version pinned in package.json), to run it with
// this Node rather than through a shell shim.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export function redoclyBin() {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve("@redocly/cli/package.json");
  const { bin } = require(pkgPath);
  return join(dirname(pkgPath), typeof bin === "string" ? bin : bin.redocly);
}
