// `conformance parity`'s command line, parsed by commander into ParityOptions: the run's target
// and key flags (same names, same defaults), verify's --har and --base-url, and what replay adds.

import { Command, InvalidArgumentError } from "commander";
import { MIN_RATE_LIMIT, requestsPerSecond } from "../facts/rate.js";
import { PARITY_DEFAULTS, type ParityOptions } from "../parity/options.js";
import { decimal, withTargetOptions } from "./cli-options.js";
import { DEFAULTS } from "./options.js";

const whole = (flag: string) => (value: string) => {
  if (!/^\d+$/.test(value.trim()))
    throw new InvalidArgumentError(`${flag} needs a whole number (got "${value}").`);
  return Number(value);
};

export function createParityCommand(): Command {
  return withTargetOptions(
    new Command("parity").description(
      "Replays a recording of the platform (a HAR, e.g. from `conformance observe --record`) against a target (the embedded simulator by default) and reports where its answers differ in shape: status, media type, Retry-After, field paths and their JSON types, enum values. Reads only unless --allow-writes. Exit code 0: it ran; 1: parity below --fail-under; 2: usage error or nothing to replay.",
    ),
  )
    .requiredOption("--har <file>", "the recording to replay")
    .option("--base-url <url>", "read only entries under this base URL (others are counted, not replayed)")
    .option(
      "--allow-writes",
      "also replay the recording's writes (POST, PUT, PATCH, DELETE), in recorded order",
      false,
    )
    .option(
      "--max-entries <n>",
      `replay at most this many entries (1 to ${PARITY_DEFAULTS.maxMaxEntries})`,
      whole("--max-entries"),
      PARITY_DEFAULTS.maxEntries,
    )
    .option(
      "--fail-under <pct>",
      "exit 1 when the overall parity is below this percentage",
      decimal("--fail-under"),
    )
    .option(
      "--rate-limit <n>",
      `requests per second (${MIN_RATE_LIMIT} to ${requestsPerSecond()})`,
      decimal("--rate-limit"),
      DEFAULTS.rateLimit,
    )
    .option(
      "--time-scale <f>",
      "retry waits × f (default 0.01 for the embedded simulator, else 1)",
      decimal("--time-scale"),
    )
    .option("--report <dir>", "directory for parity.json and parity.md", DEFAULTS.report)
    .showHelpAfterError()
    .allowExcessArguments(false);
}

export function toParityOptions(parsed: Record<string, unknown>): ParityOptions {
  const text = (name: string) => (typeof parsed[name] === "string" ? parsed[name] : undefined);
  const number = (name: string) => (typeof parsed[name] === "number" ? parsed[name] : undefined);
  return {
    har: String(parsed.har),
    baseUrl: text("baseUrl"),
    target: text("target") ?? DEFAULTS.target,
    apiKeyEnv: text("apiKeyEnv") ?? DEFAULTS.apiKeyEnv,
    resellerApiKeyEnv: text("resellerApiKeyEnv") ?? DEFAULTS.resellerApiKeyEnv,
    allowWrites: Boolean(parsed.allowWrites),
    maxEntries: number("maxEntries") ?? PARITY_DEFAULTS.maxEntries,
    failUnder: number("failUnder"),
    report: text("report") ?? DEFAULTS.report,
    rateLimit: number("rateLimit") ?? DEFAULTS.rateLimit,
    timeScale: number("timeScale"),
  };
}
