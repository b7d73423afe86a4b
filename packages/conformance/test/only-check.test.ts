// --only is checked against the ids a run can report before anything is sent: a glob that selects
// nothing is exit 2 at once, naming it and saying what is allowed, and the target never hears of
// the run. fuzz's --only matches operationIds: checkOnly's default. That the ids it is checked
// against are every id a dry run reports, and no other, is read from cli.test.ts's dry run (one
// whole dry run for both).

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runConformance } from "../src/active/run.js";
import { DEFAULTS } from "../src/cli/options.js";
import { checkOnly } from "../src/discovery/check-options.js";
import { countingServer } from "./counting-server.js";

const KEY = "4122$only-check-test-key-19ab";
const server = countingServer();
const report = mkdtempSync(join(tmpdir(), "only-check-"));

async function run(only: string[]) {
  const lines: string[] = [];
  const result = await runConformance(
    { ...DEFAULTS, only, target: server.url, report },
    { write: (line) => lines.push(line), env: { GCORE_API_KEY: KEY }, notice: () => {} },
  );
  return { ...result, text: lines.join("\n") };
}

describe("a run's --only", () => {
  it("a glob that matches no id: exit 2 before discovery contacts the target", async () => {
    const before = server.requests;
    const { exitCode, text } = await run(["zzz*"]);
    expect(exitCode).toBe(2);
    expect(text).toContain(
      `--only "zzz*" matches no scenario or result id (--dry-run lists them all); allowed: globs over those ids, such as "auth.*"`,
    );
    expect(server.requests).toBe(before);
  });

  it("names only the globs that match nothing", async () => {
    const before = server.requests;
    const { exitCode, text } = await run(["auth.*", "nope.*", "schema.nothing"]);
    expect(exitCode).toBe(2);
    expect(text).toContain(`--only "nope.*", "schema.nothing" match no scenario or result id`);
    expect(server.requests).toBe(before);
  });
});

describe("checkOnly (fuzz --only: operationIds)", () => {
  it("takes globs that match an operation, refuses one that matches none", () => {
    expect(() => checkOnly(["list*", "getCurrentClient"])).not.toThrow();
    expect(() => checkOnly(["zzz*"])).toThrow(
      `--only "zzz*" matches no operation of the spec (by operationId); allowed: globs over those ids, such as "list*", "getCurrentClient".`,
    );
  });
});
