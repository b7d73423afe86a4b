// Global setup: one dry run compiles the scenario modules into the package's module cache
// (src/shared/module-cache.ts) before the test files start their whole-suite runs side by side. On a
// fresh clone the cache is empty, and every run that starts before the first one has written it
// compiles them again (measured: 3.1 CPU-s a run cold, 2.3 warm; about two dozen runs here).
// Once a dry run has compiled the files as they are, another only costs time: the dry run's
// 2 CPU-s and 4 s before any test file starts (on a loaded 2-core machine). A stamp beside the
// cache names the files' sizes and times it compiled; while they are unchanged, it is skipped.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scenarioModuleCache } from "../src/shared/module-cache.js";
import { assertBuilt, CLI, runEnv } from "./run-cli.js";

/** A bound for a dry run that hangs; one takes about a second. */
const WARM_UP_TIMEOUT_MS = 120_000;
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
/** What the scenario modules are compiled from: the scenarios, what they import, their config. */
const SOURCES = ["scenarios", "src", "vitest.scenarios.config.ts", "../../spec/lib"].map((p) =>
  join(PACKAGE, p),
);

function* filesUnder(path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  for (const entry of readdirSync(path, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) yield join(entry.parentPath, entry.name);
}

/** The sources as they are now: each file's path, size and modification time. */
function fingerprint(): string {
  const hash = createHash("sha256");
  for (const file of SOURCES.flatMap((source) => [...filesUnder(source)]).sort()) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest("hex");
}

export default function warmScenarioModules(): void {
  assertBuilt();
  const cache = scenarioModuleCache(PACKAGE)?.fsModuleCachePath;
  const stamp = cache && `${cache}.warmed`;
  const now = fingerprint();
  const warmed = stamp && existsSync(stamp) && readFileSync(stamp, "utf8") === now;
  // A cache emptied since (vitest --clearCache) leaves the stamp behind.
  if (warmed && readdirSync(cache).length > 0) return;
  // Port 9 (discard) has no server, and a dry run calls nothing: the key is only what a URL target needs.
  const run = spawnSync(process.execPath, [CLI, "--dry-run", "--target", "http://127.0.0.1:9"], {
    env: runEnv({ GCORE_API_KEY: "warm-up-key" }),
    encoding: "utf8",
    timeout: WARM_UP_TIMEOUT_MS,
  });
  if (run.status !== 0)
    throw new Error(
      `the dry run that compiles the scenarios failed (${run.status ?? run.signal}):\n${run.stdout}${run.stderr}`,
    );
  if (stamp) writeFileSync(stamp, now);
}
