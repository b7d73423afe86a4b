import { ClientConfigError } from "./errors.js";
import { SPEC } from "./operations.js";
import { API_KEY } from "./tokens.js";
import type { RateLimiterSettings, RateLimitOptions } from "./transport/rate-limiter.js";
import type { RetryOptions } from "./transport/retry.js";
import type { Logger } from "./transport/transport.js";

/** Options of `createClient`. Every option is optional; the defaults are listed here only. */
export interface ClientOptions {
  /**
   * API token from the customer portal, sent as `Authorization: APIKey <token>`.
   * Default: the `GCORE_API_KEY` environment variable (where a `process.env` exists).
   * Pass the bare token: not prefixed with `APIKey `.
   */
  apiKey?: string;
  /**
   * Reseller admin-portal token, used instead of `apiKey` for the operations whose security is the
   * spec's `ResellerAPIKey` scheme (the `/cloud/reseller` ones).
   * Default: the `GCORE_RESELLER_API_KEY` environment variable; without it, reseller operations
   * are sent with `apiKey` (and the platform answers 403 to a client token).
   */
  resellerApiKey?: string;
  /**
   * Base address of the API, without a trailing slash.
   * Default: the `GCORE_BASE_URL` environment variable, else the description's server
   * (`DEFAULT_BASE_URL`).
   */
  baseUrl?: string;
  /** The fetch implementation. Default: the global `fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request (an `Authorization` header here is overridden). */
  headers?: Record<string, string>;
  /** Retries after the first attempt, for 429 (any method) and 5xx or lost connections (idempotent methods). Default 2. */
  maxRetries?: number;
  /** Backoff and Retry-After handling. Defaults: initialDelayMs 500, maxDelayMs 8000, maxRetryAfterMs 60000. */
  retry?: Partial<Omit<RetryOptions, "maxRetries">>;
  /** Timeout of one attempt, in ms. Default 30000. */
  timeoutMs?: number;
  /** Deadline of one call, retries and waits included, in ms. Default 120000. */
  deadlineMs?: number;
  /**
   * Largest answer body read, in bytes (`ResponseTooLargeError` beyond). Default 32 MiB. Not
   * applied to a body the caller reads as a stream (`parseAs: "stream"`).
   */
  maxResponseBytes?: number;
  /**
   * Client-side rate limit shared by every call of this client, or `false` for none.
   * Default: the platform's request-rate limit from the spec (`x-rate-limits`), evenly paced (burst 1).
   */
  rateLimit?: RateLimitOptions | false;
  /**
   * Receives the client's lines (never a header or the key). Default: `console` when `logLevel`
   * is given, else none.
   */
  logger?: Logger;
  /**
   * What is logged: `"warn"` a line for every retry; `"debug"` also one line per request and one
   * per answer (method, URL, status, duration, attempt), to `logger.debug`; `"off"` nothing.
   * Default `"warn"`.
   */
  logLevel?: LogLevel;
  /**
   * Silences the one-time warning that an API key is used in a browser page, where the page's
   * scripts and its readers can read it. Set it only where that is meant (an internal tool, a
   * token the reader typed themselves). Default false.
   */
  dangerouslyAllowBrowser?: boolean;
  /** Check parameters against the spec's bounds and enums before sending. Default true. */
  validateParams?: boolean;
}

/** The client's log levels, fewest lines last. */
export const LOG_LEVELS = ["debug", "warn", "off"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface ResolvedOptions {
  apiKey: string;
  resellerApiKey: string | undefined;
  baseUrl: string;
  fetch: typeof globalThis.fetch | undefined;
  headers: Record<string, string>;
  retry: RetryOptions;
  timeoutMs: number;
  deadlineMs: number;
  maxResponseBytes: number;
  rateLimit: RateLimiterSettings | undefined;
  logger: Logger | undefined;
  logLevel: LogLevel;
  dangerouslyAllowBrowser: boolean;
  validateParams: boolean;
}

/** The server's `base_url` default in the description. */
export const DEFAULT_BASE_URL = SPEC.conventions.defaultBaseUrl;

const { requestRate } = SPEC.conventions;

/**
 * Every default of the client, in one place. The request rate and its period are the spec's
 * (`x-rate-limits`, the limit that applies to all calls); the others are the client's choices.
 */
export const DEFAULTS = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  timeoutMs: 30_000,
  deadlineMs: 120_000,
  /**
   * largest answer body read: a page of a list at the largest limit the spec allows, at a few KB
   * per item, holds a few MB; this leaves room for that and refuses what no answer here needs
   */
  maxResponseBytes: 32 * 1024 * 1024,
  requestsPerSecond: requestRate.limit / requestRate.periodSeconds,
  /** the span over which the platform counts requests, in seconds */
  ratePeriodSeconds: requestRate.periodSeconds,
  burst: 1,
  /** overall deadline of `waitForTask`, well above the typical durations x-task-polling lists */
  taskTimeoutMs: 30 * 60_000,
  /** poll interval of `waitForTask` for a task type the spec lists no interval for */
  fallbackPollIntervalMs: 5_000,
} as const;

function checkNumber(
  option: string,
  value: unknown,
  fallback: number,
  { integer = false, min = 0, exclusiveMin = false } = {},
): number {
  if (value === undefined) return fallback;
  const ok =
    typeof value === "number" &&
    Number.isFinite(value) &&
    (!integer || Number.isInteger(value)) &&
    (exclusiveMin ? value > min : value >= min);
  if (!ok) {
    const what = `${integer ? "an integer" : "a finite number"} ${exclusiveMin ? "above" : "of at least"} ${min}`;
    throw new ClientConfigError(option, `expected ${what}, got ${JSON.stringify(value)}.`);
  }
  return value as number;
}

function env(name: string): string | undefined {
  // Read through globalThis so the runtime has no Node-only import and works in browsers.
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env?.[name];
}

/** Checks a token without ever putting it into the error message. */
export function checkApiKey(option: string, key: unknown, source: string): string {
  if (typeof key !== "string") {
    throw new ClientConfigError(
      option,
      `expected a string token (${source}), got ${key === null ? "null" : typeof key}.`,
    );
  }
  if (key.trim().length === 0) {
    throw new ClientConfigError(option, `the token (${source}) is empty; create one in the customer portal.`);
  }
  if (startsWithWord(key.trim(), API_KEY.tokenPrefix.trim())) {
    throw new ClientConfigError(
      option,
      `pass the bare token (${source}); the client adds the "${API_KEY.tokenPrefix}" prefix of the ${API_KEY.headerName} header itself.`,
    );
  }
  if (/\s/.test(key)) {
    throw new ClientConfigError(
      option,
      `the token (${source}) contains white space; tokens are one word (a "$" inside is normal).`,
    );
  }
  return key;
}

function checkBaseUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientConfigError(
      "baseUrl",
      `"${value}" (${source}) is not an absolute URL such as ${DEFAULT_BASE_URL}.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ClientConfigError("baseUrl", `"${value}" (${source}) must use http or https.`);
  }
  return value.replace(/\/+$/, "");
}

function checkLogLevel(value: unknown): LogLevel {
  if (value === undefined) return "warn";
  if (LOG_LEVELS.includes(value as LogLevel)) return value as LogLevel;
  throw new ClientConfigError(
    "logLevel",
    `expected one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(value)}.`,
  );
}

export function resolveOptions(options: ClientOptions = {}): ResolvedOptions {
  const apiKeySource =
    options.apiKey !== undefined ? "the apiKey option" : "the GCORE_API_KEY environment variable";
  const rawKey = options.apiKey ?? env("GCORE_API_KEY");
  if (rawKey === undefined) {
    throw new ClientConfigError(
      "apiKey",
      "no API token: pass { apiKey } or set the GCORE_API_KEY environment variable.",
    );
  }
  const resellerSource =
    options.resellerApiKey !== undefined
      ? "the resellerApiKey option"
      : "the GCORE_RESELLER_API_KEY environment variable";
  const rawReseller = options.resellerApiKey ?? env("GCORE_RESELLER_API_KEY");
  const baseUrlSource =
    options.baseUrl !== undefined ? "the baseUrl option" : "the GCORE_BASE_URL environment variable";
  const rawBaseUrl = options.baseUrl ?? env("GCORE_BASE_URL");
  return {
    apiKey: checkApiKey("apiKey", rawKey, apiKeySource),
    resellerApiKey:
      rawReseller === undefined ? undefined : checkApiKey("resellerApiKey", rawReseller, resellerSource),
    baseUrl: rawBaseUrl === undefined ? DEFAULT_BASE_URL : checkBaseUrl(rawBaseUrl, baseUrlSource),
    fetch: options.fetch,
    headers: options.headers ?? {},
    retry: {
      maxRetries: checkNumber("maxRetries", options.maxRetries, DEFAULTS.maxRetries, { integer: true }),
      initialDelayMs: checkNumber(
        "retry.initialDelayMs",
        options.retry?.initialDelayMs,
        DEFAULTS.initialDelayMs,
      ),
      maxDelayMs: checkNumber("retry.maxDelayMs", options.retry?.maxDelayMs, DEFAULTS.maxDelayMs),
      maxRetryAfterMs: checkNumber(
        "retry.maxRetryAfterMs",
        options.retry?.maxRetryAfterMs,
        DEFAULTS.maxRetryAfterMs,
      ),
    },
    timeoutMs: checkNumber("timeoutMs", options.timeoutMs, DEFAULTS.timeoutMs, { exclusiveMin: true }),
    deadlineMs: checkNumber("deadlineMs", options.deadlineMs, DEFAULTS.deadlineMs, { exclusiveMin: true }),
    maxResponseBytes: checkNumber("maxResponseBytes", options.maxResponseBytes, DEFAULTS.maxResponseBytes, {
      integer: true,
      exclusiveMin: true,
    }),
    rateLimit:
      options.rateLimit === false
        ? undefined
        : {
            requestsPerSecond: checkNumber(
              "rateLimit.requestsPerSecond",
              options.rateLimit?.requestsPerSecond,
              DEFAULTS.requestsPerSecond,
              { exclusiveMin: true },
            ),
            burst: checkNumber("rateLimit.burst", options.rateLimit?.burst, DEFAULTS.burst, {
              integer: true,
              min: 1,
            }),
            periodSeconds: DEFAULTS.ratePeriodSeconds,
          },
    logger: options.logger ?? (options.logLevel === undefined ? undefined : globalThis.console),
    logLevel: checkLogLevel(options.logLevel),
    dangerouslyAllowBrowser: options.dangerouslyAllowBrowser === true,
    validateParams: options.validateParams ?? true,
  };
}

/** Every token given, checked or not (for redacting the error of an option that is refused). */
export function givenKeys(options: ClientOptions = {}): unknown[] {
  return [options.apiKey, env("GCORE_API_KEY"), options.resellerApiKey, env("GCORE_RESELLER_API_KEY")];
}

/** Whether `text` is `word` (in any case), alone or before a space: the scheme's word given with the token. */
function startsWithWord(text: string, word: string): boolean {
  const head = text.slice(0, word.length);
  return (
    head.toLowerCase() === word.toLowerCase() &&
    (text.length === word.length || /\s/.test(text[word.length] ?? ""))
  );
}
