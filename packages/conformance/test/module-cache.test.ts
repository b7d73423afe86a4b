// The scenario modules' cache between runs: where it is, and that a run goes on without it where
// that folder cannot be made. (That runs fill it, and with no key, is in secrecy.test.ts.)

import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { scenarioModuleCache } from "../src/shared/module-cache.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

it("is a folder of the package's own node_modules, made when missing", () => {
  dir = mkdtempSync(join(tmpdir(), "conformance-module-cache-"));
  const cache = scenarioModuleCache(dir);
  expect(cache?.fsModuleCache).toBe(true);
  expect(cache?.fsModuleCachePath.startsWith(join(dir, "node_modules", ".cache"))).toBe(true);
  expect(statSync(cache?.fsModuleCachePath ?? "").isDirectory()).toBe(true);
});

it("is left out where the folder cannot be made, so the run goes on without it", () => {
  dir = mkdtempSync(join(tmpdir(), "conformance-module-cache-"));
  // A file where node_modules should be: no folder can be made under it, whoever runs the test
  // (a permission check would not hold for root).
  writeFileSync(join(dir, "node_modules"), "");
  expect(scenarioModuleCache(dir)).toBeUndefined();
});
