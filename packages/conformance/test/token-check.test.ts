// A token no HTTP header can carry (a letter outside ASCII, a control character) is the user's to
// fix: exit 2 naming the variable and what a token may hold, before anything is sent, and without
// the token. It used to be sent, fail in fetch, and be reported as a target that cannot be reached.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { leaks } from "../../client/test/key-forms.js";
import { runConformance } from "../src/active/run.js";
import { DEFAULTS } from "../src/cli/options.js";
import { startTarget } from "../src/discovery/target.js";
import { UsageError } from "../src/shared/usage-error.js";
import { countingServer } from "./counting-server.js";

const GOOD = "5123$token-check-good-8e2f1a";

/** Counts every request; a check that comes first sends none. */
const server = countingServer();

const report = mkdtempSync(join(tmpdir(), "token-check-"));
const options = () => ({ ...DEFAULTS, only: [] as string[], target: server.url, report });

describe.each([
  ["a Cyrillic word", "123$тест"],
  ["a control character", "123$abc\u0001def"],
  ["an emoji", "123$key-🔑-abcd"],
])("a token holding %s", (_name, bad) => {
  it.each([
    ["GCORE_API_KEY", { GCORE_API_KEY: bad }],
    ["GCORE_RESELLER_API_KEY", { GCORE_API_KEY: GOOD, GCORE_RESELLER_API_KEY: bad }],
  ])("in %s: a usage error naming the variable, not the token", async (variable, env) => {
    const error = await startTarget(options(), env).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).toContain(`The token in ${variable} holds a character no HTTP header can carry`);
    expect(message).toMatch(/visible ASCII/);
    expect(leaks(message, { token: bad })).toEqual([]);
  });

  it("a run: exit 2 before anything is sent", async () => {
    const lines: string[] = [];
    const before = server.requests;
    const result = await runConformance(options(), {
      write: (line) => lines.push(line),
      notice: () => {},
      env: { GCORE_API_KEY: bad },
    });
    expect(result.exitCode).toBe(2);
    expect(lines.join("\n")).not.toMatch(/cannot be reached/);
    expect(lines.join("\n")).toMatch(/no HTTP header can carry/);
    expect(server.requests).toBe(before);
  }, 120_000);
});
