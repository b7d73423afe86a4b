// `conformance fuzz`'s command line, parsed by commander into FuzzOptions: the main run's target
// options (same flags, same defaults) and what generation adds.

import { Command, InvalidArgumentError } from "commander";
import { MIN_RATE_LIMIT, requestsPerSecond } from "../facts/rate.js";
import { FUZZ_DEFAULTS, type FuzzOptions } from "../fuzz/options.js";
import { PHASES } from "../fuzz/request.js";
import type { Phase } from "../shared/finding.js";
import { decimal, toOptions, withPlaceOptions, withTargetOptions } from "./cli-options.js";
import { DEFAULTS } from "./options.js";

const whole = (flag: string) => (value: string) => {
  if (!/^-?\d+$/.test(value.trim()))
    throw new InvalidArgumentError(`${flag} needs a whole number (got "${value}").`);
  return Number(value);
};

export function createFuzzCommand(): Command {
  const command = withTargetOptions(
    new Command("fuzz").description(
      "Sends requests generated from the spec (bounds, enums, formats, property-based, stateful) and judges every answer; a reproducer (curl) per finding. Exit code 0: conformant; 1: a `must` finding (not in the baseline); 2: usage.",
    ),
  )
    .option(
      "--allow-writes",
      "also call operations that may change something (not GET), and run the stateful phase",
      false,
    )
    .option("--only <glob...>", "only operations whose operationId matches a glob, e.g. 'list*'")
    .option(
      "--rate-limit <n>",
      `requests per second (${MIN_RATE_LIMIT} to ${requestsPerSecond()})`,
      decimal("--rate-limit"),
      DEFAULTS.rateLimit,
    );
  return withPlaceOptions(command)
    .option("--strict", "count `should` findings as failures", false)
    .option(
      "--fail-on-flaky",
      "exit 1 on flaky findings too (a request that did not fail every time it was sent again)",
      false,
    )
    .option(
      "--time-scale <f>",
      "polling intervals and deadlines × f (default 0.01 for the embedded simulator, else 1)",
      decimal("--time-scale"),
    )
    .option(
      "--seed <n>",
      "same seed, same requests in the same order (default: random, printed)",
      whole("--seed"),
    )
    .option(
      "--max-examples <n>",
      `generated requests per operation in the fuzz phase (1 to ${FUZZ_DEFAULTS.maxMaxExamples})`,
      whole("--max-examples"),
      FUZZ_DEFAULTS.maxExamples,
    )
    .option(
      "--phases <list>",
      `comma-separated phases: ${PHASES.join(", ")}`,
      (value: string) => value.split(",").map((p) => p.trim()) as Phase[],
      [...FUZZ_DEFAULTS.phases],
    )
    .option("--baseline <file>", "known findings (by rule and operation): reported, not failed")
    .option("--baseline-update", "write this run's findings to the --baseline file", false)
    .option("--replay <report.json>", "send the findings of a fuzz report again, and say which still fail")
    .showHelpAfterError()
    .allowExcessArguments(false);
}

export function toFuzzOptions(parsed: Record<string, unknown>): FuzzOptions {
  const text = (name: string) => (typeof parsed[name] === "string" ? parsed[name] : undefined);
  const number = (name: string) => (typeof parsed[name] === "number" ? parsed[name] : undefined);
  return {
    // The run's options as a run reads them; fuzz has no burst and no dry run.
    ...toOptions(parsed),
    allowBurst: false,
    dryRun: false,
    seed: number("seed"),
    maxExamples: number("maxExamples") ?? FUZZ_DEFAULTS.maxExamples,
    phases: Array.isArray(parsed.phases) ? (parsed.phases as Phase[]) : [...FUZZ_DEFAULTS.phases],
    baseline: text("baseline"),
    baselineUpdate: Boolean(parsed.baselineUpdate),
    replay: text("replay"),
  };
}
