// The CLI's flags, with their defaults and the checks of their values: what `pnpm sim` parses, and
// what the tests parse in-process (only how a refusal exits is left to the bin, cli.ts).

import { Command, InvalidArgumentError } from "commander";
import { ADMIN_TOKEN_HEADER, DEFAULTS } from "./options.js";
import { VERSION } from "./version.js";

const integer =
  (name: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  (value: string) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || n > max)
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}.`);
    return n;
  };
const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError(`${name} must be a number above 0, e.g. 0.01.`);
  return n;
};

/** The command line of the bin, as commander parses it (each call a fresh program). */
export function cliProgram(): Command {
  return new Command("platform-api-sim")
    .description(
      "Stateful local stand-in of the platform API (flags and the admin surface: the package README).",
    )
    .version(VERSION)
    .option(
      "--port <port>",
      "port to listen on; 0 picks a free one",
      integer("--port", 0, 65535),
      DEFAULTS.port,
    )
    .option(
      "--host <host>",
      "interface to listen on; one that is not loopback needs --allow-remote-listen",
      DEFAULTS.host,
    )
    .option(
      "--allow-remote-listen",
      `allow a --host that is not loopback (/_sim/ then answers other hosts only with ${ADMIN_TOKEN_HEADER})`,
      false,
    )
    .option(
      "--api-key <token>",
      "client token to accept (default: $GCORE_API_KEY, else the documented default)",
    )
    .option(
      "--reseller-api-key <token>",
      "reseller token to accept (default: $GCORE_RESELLER_API_KEY, else the documented default)",
    )
    .option("--seed <file>", "JSON world file that replaces the default world")
    .option(
      "--random-seed <n>",
      "seed of the random source",
      integer("--random-seed", 0),
      DEFAULTS.randomSeed,
    )
    .option(
      "--time-scale <factor>",
      "multiplies task durations (0.01 = 100 times faster)",
      positive("--time-scale"),
      DEFAULTS.timeScale,
    )
    .option(
      "--rate-limit <n>",
      "requests per client IP within the period of the spec's request rate (x-rate-limits) before 429; 0 = off (default: the spec's limit)",
      integer("--rate-limit", 0),
    )
    .option(
      "--request-timeout <ms>",
      "milliseconds a request may take to arrive whole before a 408",
      integer("--request-timeout", 1),
      DEFAULTS.requestTimeoutMs,
    )
    .option(
      "--task-retention <seconds>",
      "seconds of simulated time a finished task stays readable",
      integer("--task-retention", 1),
      DEFAULTS.taskRetentionSeconds,
    )
    .option("--no-retry-after", "answer 429 without a Retry-After header")
    .option("--faults <spec>", 'inject faults, e.g. "500:0.1,429:0.05,reset:0.01,latency:20-200"')
    .option("--log", "log every request (never the Authorization header)", false)
    .showHelpAfterError();
}
