#!/usr/bin/env node
// `pnpm sim`: starts the simulator and prints one line with its URL and the tokens it accepts.

import { Command, InvalidArgumentError } from "commander";
import { ADMIN_TOKEN_HEADER, ADMIN_TOKEN_VARIABLE, DEFAULTS, isLoopbackHost } from "./options.js";
import { VERSION } from "./version.js";
import { describeToken } from "./world/tokens.js";

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

const program = new Command("platform-api-sim")
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
  .option("--random-seed <n>", "seed of the random source", integer("--random-seed", 0), DEFAULTS.randomSeed)
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
  .showHelpAfterError()
  // Every usage error is exit 2, as a refused --seed or --faults is below (commander's default is 1).
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));

program.parse();
const flags = program.opts();

const remote = !isLoopbackHost(flags.host);
if (remote && !flags.allowRemoteListen) {
  console.error(
    `platform-api-sim: --host ${flags.host} is not loopback (127.0.0.0/8, ::1, localhost): anyone who can reach it could call the API with the tokens it prints. Pass --allow-remote-listen if that is what you want.`,
  );
  process.exit(2);
}

// Loaded once the flags are read: the server brings in the spec and Fastify, which --help,
// --version and a refused flag do not need.
const { startSimulator } = await import("./server.js");
try {
  const simulator = await startSimulator({
    host: flags.host,
    allowRemoteListen: flags.allowRemoteListen,
    port: flags.port,
    apiKey: flags.apiKey,
    resellerApiKey: flags.resellerApiKey,
    seedFile: flags.seed,
    randomSeed: flags.randomSeed,
    timeScale: flags.timeScale,
    rateLimit: flags.rateLimit,
    retryAfter: flags.retryAfter,
    faults: flags.faults,
    requestTimeoutMs: flags.requestTimeout,
    taskRetentionSeconds: flags.taskRetention,
    log: flags.log,
  });
  console.log(
    `Platform API simulator at ${simulator.url} — tokens: ${simulator.tokens.map(describeToken).join("; ")}`,
  );
  if (remote) {
    // Said once, at the start: the token is random per start unless the environment gives it.
    const token = process.env[ADMIN_TOKEN_VARIABLE]
      ? `the token in $${ADMIN_TOKEN_VARIABLE}`
      : simulator.adminToken;
    console.error(
      `platform-api-sim: warning: listening on ${flags.host}, not loopback: any host that reaches it can call the API with the tokens above; the admin surface /_sim/ answers callers other than 127.0.0.1 and ::1 only with the header ${ADMIN_TOKEN_HEADER}: ${token}`,
    );
  }
  const stop = async () => {
    await simulator.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(`platform-api-sim: ${(error as Error).message}`);
  process.exit(2);
}
