// Every option of the simulator with its default, in one place (the CLI and the README follow it).

import type { World } from "./world/types.js";

export interface SimulatorOptions {
  /** Interface to listen on. Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Port; 0 picks a free one. Default 4020. */
  port?: number;
  /** Replaces the default client token (else GCORE_API_KEY, else DEFAULT_TOKENS.client). */
  apiKey?: string;
  /** Replaces the default reseller token (else GCORE_RESELLER_API_KEY, else DEFAULT_TOKENS.reseller). */
  resellerApiKey?: string;
  /** A world to start from instead of the default one (checked like a seed file). */
  world?: World;
  /** Path of a JSON world file (`--seed FILE`); wins over `world`. */
  seedFile?: string;
  /** Seed of the random source (world generation, task durations, faults, ids). Default 1. */
  randomSeed?: number;
  /** Multiplies task durations: 0.01 turns create_volume's 5-15 s into 50-150 ms. Default 1. */
  timeScale?: number;
  /** Requests per second per client IP before 429; 0 turns the limit off. Default 100. */
  rateLimit?: number;
  /** Whether a 429 carries Retry-After (the seed does not show it). Default true. */
  retryAfter?: boolean;
  /** Fault spec, e.g. "500:0.1,429:0.05,reset:0.01,latency:20-200". Default none. */
  faults?: string;
  /**
   * Milliseconds a request may take to arrive whole (headers and body); past it the answer is a
   * 408 and the connection closes. Default 10000.
   */
  requestTimeoutMs?: number;
  /** Seconds of the simulated clock a FINISHED or ERROR task stays readable. Default 3600. */
  taskRetentionSeconds?: number;
  /** Log every request (pino, to stdout). Default false. Authorization is never logged. */
  log?: boolean;
  /** Read tokens from this environment instead of process.env (tests). */
  env?: Record<string, string | undefined>;
  /** @internal another bundled spec, to prove that an operation without a handler stops the start. */
  spec?: Record<string, any>;
}

export const DEFAULTS = {
  host: "127.0.0.1",
  port: 4020,
  randomSeed: 1,
  timeScale: 1,
  rateLimit: 100,
  retryAfter: true,
  requestTimeoutMs: 10_000,
  taskRetentionSeconds: 3600,
  /**
   * Seconds an idle keep-alive connection stays open: longer than clients keep idle sockets
   * (undici 4 s; Node's agent follows the server's hint), so a reused socket is never closed
   * under a request that is already on its way.
   */
  keepAliveTimeoutSeconds: 72,
} as const;

export function checkOptions(options: SimulatorOptions): void {
  const problems: string[] = [];
  const { port, timeScale, rateLimit, randomSeed, requestTimeoutMs, taskRetentionSeconds } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    problems.push(`port must be an integer from 0 to 65535 (got ${port})`);
  if (timeScale !== undefined && !(Number.isFinite(timeScale) && timeScale > 0))
    problems.push(`timeScale must be a number above 0 (got ${timeScale})`);
  if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 0))
    problems.push(
      `rateLimit must be a whole number of requests per second, 0 for no limit (got ${rateLimit})`,
    );
  if (requestTimeoutMs !== undefined && !(Number.isInteger(requestTimeoutMs) && requestTimeoutMs >= 1))
    problems.push(
      `requestTimeoutMs must be a whole number of milliseconds, at least 1 (got ${requestTimeoutMs})`,
    );
  if (
    taskRetentionSeconds !== undefined &&
    !(Number.isFinite(taskRetentionSeconds) && taskRetentionSeconds > 0)
  )
    problems.push(`taskRetentionSeconds must be a number of seconds above 0 (got ${taskRetentionSeconds})`);
  if (randomSeed !== undefined && !Number.isInteger(randomSeed))
    problems.push(`randomSeed must be an integer (got ${randomSeed})`);
  for (const [name, token] of [
    ["apiKey", options.apiKey],
    ["resellerApiKey", options.resellerApiKey],
  ] as const) {
    if (token !== undefined && (token === "" || /\s/.test(token)))
      problems.push(`${name} must be a non-empty token without spaces`);
  }
  if (problems.length > 0) throw new Error(`Invalid simulator options: ${problems.join("; ")}.`);
}
