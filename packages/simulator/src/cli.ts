#!/usr/bin/env node
// `pnpm sim`: starts the simulator and prints one line with its URL and the tokens it accepts.

import { cliProgram } from "./cli-program.js";
import { ADMIN_TOKEN_HEADER, ADMIN_TOKEN_VARIABLE, isLoopbackHost } from "./options.js";
import { describeToken } from "./world/tokens.js";

const program = cliProgram()
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
