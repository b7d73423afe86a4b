// The workspace's test runs: each package's `test` script, and the root's `test:scripts` (tests of
// scripts/; the root's own `test` is scripts/test.mjs, which runs them all). Read by the test command
// and by scripts/test-cost.mjs, so that both mean the same runs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Each folder with tests (relative to `root`, "." first) and the script that runs them. */
export function packagesWithTests(root) {
  const dirs = ["spec", ...readdirSync(join(root, "packages")).map((d) => join("packages", d))];
  const withTests = dirs.filter((dir) => {
    const file = join(root, dir, "package.json");
    return existsSync(file) && JSON.parse(readFileSync(file, "utf8")).scripts?.test;
  });
  return [{ dir: ".", script: "test:scripts" }, ...withTests.map((dir) => ({ dir, script: "test" }))];
}
