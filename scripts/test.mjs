// Runs every package's tests through turbo, then prints the totals of all of them on one line,
// "N passed, N failed", read from each package's vitest JSON report. A package whose tests did not
// run (no report) or a run with no test at all fails, so an empty run can never look green.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { packagesWithTests } from "./packages-with-tests.mjs";

const root = new URL("..", import.meta.url).pathname;
const REPORT = ".vitest-results.json";

// The docs' browser tests drive the system's Chromium; install Debian's package when it is missing
// and we can (root or password-less sudo). When we cannot, those tests fail and say how to get one.
spawnSync(process.execPath, [join(root, "packages/docs/scripts/chromium.mjs"), "--install"], {
  stdio: "inherit",
});

const packages = packagesWithTests(root).map((run) => run.dir);
for (const dir of packages) rmSync(join(root, dir, REPORT), { force: true });

// --continue: one package's failure must not stop the others, so the totals cover every test.
// Every package's tests start once its build is done, side by side (conformance's no longer wait
// for the docs' browser tests: a burst a loaded machine makes too slow to exceed the rate skips,
// saying so, and its defect catalogue makes a third of the runs it did).
const turbo = spawnSync("turbo", ["run", "test", "test:scripts", "--continue", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
  shell: false,
});

let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];
for (const dir of packages) {
  const file = join(root, dir, REPORT);
  if (!existsSync(file)) {
    problems.push(`${dir}: no test report (${REPORT}); its tests did not run`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  if (report.numTotalTests === 0) problems.push(`${dir}: ran no test`);
}
if (turbo.status !== 0 && failed === 0)
  problems.push(`turbo run test exited with ${turbo.status ?? turbo.signal}`);
for (const problem of problems) console.error(problem);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || problems.length > 0 || passed === 0 ? 1 : 0);
