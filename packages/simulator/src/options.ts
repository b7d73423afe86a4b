// Every option of the simulator with its default, in one place (the CLI and the README follow it).

import type { OpenApiDocument } from "./spec.js";
import type { World } from "./world/types.js";

export interface SimulatorOptions {
  /**
   * Interface to listen on. Default 127.0.0.1. One that is not loopback (127.0.0.0/8, ::1,
   * localhost) is refused unless `allowRemoteListen` is set.
   */
  host?: string;
  /**
   * Allows a `host` that is not loopback. Anyone who reaches it can then call the API surface with
   * the tokens; the admin surface (`/_sim/`) answers callers other than 127.0.0.1 and ::1 only with
   * the admin token. Default false.
   */
  allowRemoteListen?: boolean;
  /**
   * The admin token that opens `/_sim/` to any caller (header `X-Sim-Admin-Token`): at least 16
   * visible ASCII characters. Default: $PLATFORM_API_SIM_ADMIN_TOKEN, else random per start
   * (`Simulator.adminToken`).
   */
  adminToken?: string;
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
  /** Multiplies task durations: 0.01 runs every task 100 times faster. Default 1. */
  timeScale?: number;
  /**
   * Requests per client IP within the period of the spec's request rate (`x-rate-limits`, the
   * limit that applies to all calls) before 429; 0 turns the limit off. Default: the spec's limit.
   */
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
  /**
   * Seconds a task runs when the spec's x-task-polling lists no typical duration for its task type
   * (the simulator's own choice, not the platform's). Default 10.
   */
  unlistedTaskSeconds?: number;
  /** Log every request (pino, to stdout). Default false. Authorization is never logged. */
  log?: boolean;
  /** Read tokens from this environment instead of process.env (tests). */
  env?: Record<string, string | undefined>;
  /**
   * The description to serve instead of the bundled one (tests: a changed description, or one with an
   * operation the simulator has no handler for). Routes, checks, the rate limit and task durations
   * follow it.
   */
  spec?: OpenApiDocument;
}

export const DEFAULTS = {
  host: "127.0.0.1",
  port: 4020,
  randomSeed: 1,
  timeScale: 1,
  retryAfter: true,
  requestTimeoutMs: 10_000,
  taskRetentionSeconds: 3600,
  unlistedTaskSeconds: 10,
  /**
   * Seconds an idle keep-alive connection stays open: longer than clients keep idle sockets
   * (undici 4 s; Node's agent follows the server's hint), so a reused socket is never closed
   * under a request that is already on its way.
   */
  keepAliveTimeoutSeconds: 72,
} as const;

/** The header that carries the admin token (declared here, beside the options, for the CLI's help). */
export const ADMIN_TOKEN_HEADER = "X-Sim-Admin-Token";

/** Where the admin token may come from besides the option. */
export const ADMIN_TOKEN_VARIABLE = "PLATFORM_API_SIM_ADMIN_TOKEN";

const LOOPBACK_HOST = /^(127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}|::1|localhost)$/i;

/** Whether a listen address stays on this machine: 127.0.0.0/8, ::1 or localhost. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOST.test(host);
}

/** The problem with an admin token, or undefined: visible ASCII, long enough not to be guessed. */
export function adminTokenProblem(name: string, token: string): string | undefined {
  return /^[\x21-\x7e]{16,}$/.test(token)
    ? undefined
    : `${name} must be at least 16 visible ASCII characters, without spaces (got ${token.length} characters)`;
}

export function checkOptions(options: SimulatorOptions): void {
  const problems: string[] = [];
  const {
    port,
    timeScale,
    rateLimit,
    randomSeed,
    requestTimeoutMs,
    taskRetentionSeconds,
    unlistedTaskSeconds,
  } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535))
    problems.push(`port must be an integer from 0 to 65535 (got ${port})`);
  if (timeScale !== undefined && !(Number.isFinite(timeScale) && timeScale > 0))
    problems.push(`timeScale must be a number above 0 (got ${timeScale})`);
  if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 0))
    problems.push(
      `rateLimit must be a whole number of requests per period of the spec's request rate, 0 for no limit (got ${rateLimit})`,
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
  if (
    unlistedTaskSeconds !== undefined &&
    !(Number.isFinite(unlistedTaskSeconds) && unlistedTaskSeconds >= 0)
  )
    problems.push(`unlistedTaskSeconds must be a number of seconds, 0 or more (got ${unlistedTaskSeconds})`);
  if (randomSeed !== undefined && !Number.isInteger(randomSeed))
    problems.push(`randomSeed must be an integer (got ${randomSeed})`);
  for (const [name, token] of [
    ["apiKey", options.apiKey],
    ["resellerApiKey", options.resellerApiKey],
  ] as const) {
    if (token !== undefined && (token === "" || /\s/.test(token)))
      problems.push(`${name} must be a non-empty token without spaces`);
  }
  if (options.host !== undefined && !isLoopbackHost(options.host) && !options.allowRemoteListen)
    problems.push(
      `host ${options.host} is not loopback (127.0.0.0/8, ::1, localhost): anyone who can reach it could call the simulator; set allowRemoteListen: true if that is what you want`,
    );
  if (options.adminToken !== undefined) {
    const problem = adminTokenProblem("adminToken", options.adminToken);
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) throw new Error(`Invalid simulator options: ${problems.join("; ")}.`);
}
