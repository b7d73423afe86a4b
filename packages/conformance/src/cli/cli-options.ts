// The command line, parsed by commander into ConformanceOptions. Shared by the CLI and by the
// plain-vitest global setup (which reads the same flags from CONFORMANCE_ARGS).

import { Command, InvalidArgumentError, Option } from "commander";
import { ID_RANGE } from "../discovery/check-options.js";
import { MIN_RATE_LIMIT, rateText, requestsPerSecond } from "../facts/rate.js";
import { reportFilesInWords } from "../report/formats.js";
import type { ConformanceOptions } from "../shared/conformance-options.js";
import { VERSION } from "../shared/version.js";
import { DEFAULTS } from "./options.js";

/** An id: a whole number a JavaScript number holds exactly (9007199254740993 would become …992). */
export const integer = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`${flag} needs a whole number (got "${value}"); ${ID_RANGE}.`);
  return n;
};

export const decimal = (flag: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n))
    throw new InvalidArgumentError(`${flag} needs a number (got "${value}").`);
  return n;
};

/** --target and the key variables: the same flags and defaults for a run and for fuzz. */
export function withTargetOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        "--target <target>",
        '"simulator" (in-process), "prism" (mock of the spec), or a base URL',
      ).default(DEFAULTS.target),
    )
    .option(
      "--api-key-env <name>",
      "environment variable with the client token (URL targets)",
      DEFAULTS.apiKeyEnv,
    )
    .option(
      "--reseller-api-key-env <name>",
      "environment variable with the reseller token (optional)",
      DEFAULTS.resellerApiKeyEnv,
    );
}

/** The project, region, profile, GPU flavor and report folder: the same for a run and for fuzz. */
export function withPlaceOptions(command: Command): Command {
  return command
    .option("--project-id <id>", "project to use (default: the default project)", integer("--project-id"))
    .option("--region-id <id>", "region to use (default: an ACTIVE region)", integer("--region-id"))
    .option(
      "--protection-profile-id <id>",
      "protection profile for the security scenarios",
      integer("--protection-profile-id"),
    )
    .option("--gpu-flavor <name>", "virtual GPU flavor for check_limits")
    .option("--report <dir>", `directory for ${reportFilesInWords()}`, DEFAULTS.report);
}

export function createProgram(): Command {
  const program = withTargetOptions(
    new Command()
      .name("platform-api-conformance")
      .version(VERSION)
      .description(
        "Checks that a server behaves as the platform API's spec and documented rules say. Exit code 0: conformant; 1: a `must` scenario failed; 2: usage or configuration error.",
      ),
  )
    .option("--allow-writes", "run scenarios that create or change resources", false)
    .option("--allow-burst", `run the rate-limit scenarios (more than the platform's ${rateText()})`, false)
    .option("--only <glob...>", "only scenarios whose id matches a glob, e.g. 'pagination.*'")
    .option(
      "--rate-limit <n>",
      `requests per second for every scenario but the burst (${MIN_RATE_LIMIT} to ${requestsPerSecond()})`,
      decimal("--rate-limit"),
      DEFAULTS.rateLimit,
    );
  return withPlaceOptions(program)
    .option("--strict", "count `should` failures as failures", false)
    .option(
      "--fail-on-flaky",
      "exit 1 on flaky results too (a 5xx or lost answer that did not repeat when sent again)",
      false,
    )
    .option("--dry-run", "list the scenarios and what they would call; call nothing", false)
    .option(
      "--time-scale <f>",
      "polling intervals and deadlines × f (default 0.01 for the embedded simulator, else 1)",
      decimal("--time-scale"),
    )
    .showHelpAfterError()
    .allowExcessArguments(false);
}

export function toOptions(parsed: Record<string, unknown>): ConformanceOptions {
  const text = (name: string) => (typeof parsed[name] === "string" ? parsed[name] : undefined);
  const number = (name: string) => (typeof parsed[name] === "number" ? parsed[name] : undefined);
  const only = parsed.only;
  return {
    target: text("target") ?? DEFAULTS.target,
    apiKeyEnv: text("apiKeyEnv") ?? DEFAULTS.apiKeyEnv,
    resellerApiKeyEnv: text("resellerApiKeyEnv") ?? DEFAULTS.resellerApiKeyEnv,
    allowWrites: Boolean(parsed.allowWrites),
    allowBurst: Boolean(parsed.allowBurst),
    only: Array.isArray(only) ? only.map(String) : [],
    rateLimit: number("rateLimit") ?? DEFAULTS.rateLimit,
    projectId: number("projectId"),
    regionId: number("regionId"),
    protectionProfileId: number("protectionProfileId"),
    gpuFlavor: text("gpuFlavor"),
    report: text("report") ?? DEFAULTS.report,
    strict: Boolean(parsed.strict),
    failOnFlaky: Boolean(parsed.failOnFlaky),
    dryRun: Boolean(parsed.dryRun),
    timeScale: number("timeScale"),
  };
}

/** Parses argv (without node and script) the way the CLI does; throws commander's errors. */
export function parseArgs(argv: string[]): ConformanceOptions {
  const program = createProgram()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  program.parse(argv, { from: "user" });
  return toOptions(program.opts());
}
