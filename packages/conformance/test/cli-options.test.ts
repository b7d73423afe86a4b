// Flags out of their range are usage errors naming the range, at the first layer that can know it
// (commander's parsers, then checkOptions), never values that silently change what a run does:
// a duration past what a timer holds, a pace too slow to keep, an id that is not a safe integer.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../src/cli/cli-options.js";
import { createFuzzCommand, toFuzzOptions } from "../src/cli/fuzz-options.js";
import { DEFAULTS } from "../src/cli/options.js";
import { createObserveCommand } from "../src/cli/traffic-options.js";
import { checkOptions } from "../src/discovery/check-options.js";
import { MIN_RATE_LIMIT, requestsPerSecond } from "../src/facts/rate.js";
import { checkFuzzOptions, FUZZ_DEFAULTS } from "../src/fuzz/options.js";
import { UsageError } from "../src/shared/usage-error.js";
import { MAX_DURATION_SECONDS, runObserve } from "../src/traffic/commands.js";

const quiet = (command: Command) =>
  command.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });

/** The message commander (or checkOptions after it) refuses `argv` with. */
function refusal(argv: string[]): string {
  try {
    checkOptions(parseArgs(argv));
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`accepted: ${argv.join(" ")}`);
}

describe("--rate-limit", () => {
  it.each(["1e-7", String(MIN_RATE_LIMIT / 2), "0"])("%s is below the range, which is named", (value) => {
    expect(refusal(["--rate-limit", value])).toContain(
      `at least ${MIN_RATE_LIMIT}, at most ${requestsPerSecond()}`,
    );
  });

  it("the range's ends are allowed", () => {
    expect(() => checkOptions(parseArgs(["--rate-limit", String(MIN_RATE_LIMIT)]))).not.toThrow();
    expect(() => checkOptions(parseArgs(["--rate-limit", String(requestsPerSecond())]))).not.toThrow();
  });

  it("checkOptions refuses it too (the plain-vitest path skips commander)", () => {
    expect(() => checkOptions({ ...DEFAULTS, only: [], rateLimit: 1e-7 })).toThrow(UsageError);
  });
});

describe("--target", () => {
  it("a name other than simulator or prism is refused, naming what is allowed", () => {
    expect(refusal(["--target", "staging"])).toMatch(
      /--target "staging" is not allowed: use "simulator" \(the default\), "prism", or a base URL/,
    );
  });
});

describe("ids", () => {
  it("a word is refused, naming the flag", () => {
    expect(refusal(["--project-id", "abc"])).toMatch(/--project-id needs a whole number/);
  });

  it.each(["--project-id", "--region-id", "--protection-profile-id"])(
    "%s: an integer past 2^53 is refused, not rounded",
    (flag) => {
      expect(refusal([flag, "9007199254740993"])).toMatch(
        new RegExp(
          `${flag} needs a whole number \\(got "9007199254740993"\\); allowed: 1 to ${Number.MAX_SAFE_INTEGER}`,
        ),
      );
      expect(parseArgs([flag, String(Number.MAX_SAFE_INTEGER)])).toBeDefined();
    },
  );
});

describe("observe --duration", () => {
  const parse = (value: string) =>
    quiet(createObserveCommand()).parse(["--upstream", "http://127.0.0.1:9", "--duration", value], {
      from: "user",
    });

  it("past what a timer holds is refused, naming the most", () => {
    expect(() => parse("3000000")).toThrow(`at most ${MAX_DURATION_SECONDS}`);
    expect(() => parse(String(MAX_DURATION_SECONDS))).not.toThrow();
  });

  it("runObserve refuses it too, before it listens (exit 2)", async () => {
    const lines: string[] = [];
    let listened = false;
    const result = await runObserve(
      {
        upstream: "http://127.0.0.1:9",
        listen: "127.0.0.1:0",
        allowRemoteListen: false,
        durationSeconds: 3_000_000,
        report: mkdtempSync(join(tmpdir(), "observe-duration-")),
        strict: false,
      },
      { write: (line) => lines.push(line), env: {}, listening: () => (listened = true) },
    );
    expect(result.exitCode).toBe(2);
    expect(listened).toBe(false);
    expect(lines.join("\n")).toContain(`at most ${MAX_DURATION_SECONDS}`);
  });
});

describe("fuzz's flags", () => {
  const parse = (argv: string[]) => {
    const command = quiet(createFuzzCommand());
    command.parse(argv, { from: "user" });
    return toFuzzOptions(command.opts());
  };

  it("default to the run's target options and FUZZ_DEFAULTS", () => {
    const options = parse([]);
    expect(options).toMatchObject({
      target: DEFAULTS.target,
      rateLimit: DEFAULTS.rateLimit,
      allowWrites: false,
      maxExamples: FUZZ_DEFAULTS.maxExamples,
      phases: FUZZ_DEFAULTS.phases,
      baselineUpdate: false,
    });
    expect(options.seed).toBeUndefined();
  });

  it("read a seed, a list of phases, globs and files", () => {
    const options = parse([
      "--seed",
      "-5",
      "--phases",
      "coverage, fuzz",
      "--only",
      "list*",
      "getTask",
      "--max-examples",
      "3",
      "--baseline",
      "b.json",
      "--baseline-update",
      "--allow-writes",
    ]);
    expect(options).toMatchObject({
      seed: -5,
      phases: ["coverage", "fuzz"],
      only: ["list*", "getTask"],
      maxExamples: 3,
      baseline: "b.json",
      baselineUpdate: true,
      allowWrites: true,
    });
  });

  it("refuse a seed or a count that is no whole number, naming the flag", () => {
    expect(() => parse(["--seed", "1.5"])).toThrow("--seed needs a whole number");
    expect(() => parse(["--max-examples", "many"])).toThrow("--max-examples needs a whole number");
    expect(() => checkFuzzOptions(parse(["--max-examples", "5000"]))).toThrow(UsageError);
    expect(() => checkFuzzOptions(parse(["--seed", String(2 ** 40)]))).toThrow(
      "--seed needs a whole number from",
    );
  });
});
