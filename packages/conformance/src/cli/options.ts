// Every option of a conformance run with its default, in one place (the CLI, the README and the
// plain-vitest global setup follow it).

import picomatch from "picomatch";
import { defaultRateLimit, MIN_RATE_LIMIT, rateText, requestRate, requestsPerSecond } from "../spec/rate.js";
import { hideUrlPasswords } from "../shared/redact.js";
import { specModel } from "../spec/spec.js";

export interface ConformanceOptions {
  /** "simulator" (in-process, the default), "prism", or the base URL of a server. */
  target: string;
  /** Environment variable holding the client key for a URL target. */
  apiKeyEnv: string;
  /** Environment variable holding the reseller key (optional; reseller scenarios skip without it). */
  resellerApiKeyEnv: string;
  allowWrites: boolean;
  allowBurst: boolean;
  only: string[];
  /** Requests per second of every scenario but the burst. */
  rateLimit: number;
  projectId?: number;
  regionId?: number;
  protectionProfileId?: number;
  gpuFlavor?: string;
  report: string;
  strict: boolean;
  /**
   * Count flaky results (a 5xx or lost answer that did not repeat when its request was sent again)
   * as failures: exit 1 on them. Default false: alone they are exit 0, the verdict saying so.
   */
  failOnFlaky?: boolean;
  dryRun: boolean;
  /** Default: 0.01 for the embedded simulator, 1 for any other target. */
  timeScale?: number;
  /**
   * Library use only (no flag): a file the run writes every exchange to as the judge read it (JSON
   * lines of ObservedExchange, tokens replaced by their labels: "APIKey token 1"), so that the same
   * traffic can be judged again in-process (the suite's own teeth tests).
   */
  recordExchanges?: string;
}

export const DEFAULTS = {
  target: "simulator",
  apiKeyEnv: "GCORE_API_KEY",
  resellerApiKeyEnv: "GCORE_RESELLER_API_KEY",
  allowWrites: false,
  allowBurst: false,
  only: [] as string[],
  /** Half the platform's request rate (x-rate-limits), per second. */
  get rateLimit(): number {
    return defaultRateLimit();
  },
  report: "conformance-report",
  strict: false,
  failOnFlaky: false,
  dryRun: false,
  simulatorTimeScale: 0.01,
} as const;

/** A problem with how the suite was asked to run: exit code 2, with a message that says what to do. */
export class UsageError extends Error {
  override name = "UsageError";
}

export function targetKind(target: string): "simulator" | "prism" | "url" {
  if (target === "simulator" || target === "prism") return target;
  baseUrlOf(
    "--target",
    target,
    'use "simulator" (the default), "prism", or a base URL such as https://api.example.com',
  );
  return "url";
}

/**
 * A flag's base URL (--target, observe's --upstream, verify's --base-url): http or https, without
 * a query or fragment, and without a user name or password: the token goes in the Authorization
 * header, so a URL's credentials would never be sent (node:http drops them, fetch refuses such a
 * URL), and a password must not reach a message or a report. `allowed` says what the flag takes,
 * for a value that is no URL at all. Messages show a URL's password as `***`.
 */
export function baseUrlOf(
  flag: string,
  value: string,
  allowed = "give a base URL such as https://api.gcore.com",
): URL {
  const shown = hideUrlPasswords(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${flag} "${shown}" is not allowed: ${allowed}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`${flag} ${shown}: only http:// and https:// URLs are allowed.`);
  if (url.username || url.password)
    throw new UsageError(
      `${flag} ${hideUrlPasswords(url.href)}: give the base URL without a user name or password. They would not be sent: the token goes in the Authorization header (from the key variable, or your client's own requests).`,
    );
  if (url.search || url.hash)
    throw new UsageError(`${flag} ${shown}: give the base URL without a query or fragment.`);
  return url;
}

/**
 * The host to connect to for a URL: an IPv6 literal without the brackets the URL writes it in
 * (`new URL("http://[::1]:4521").hostname` is `[::1]`, which a resolver looks up as a name).
 */
export function connectHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** What an id flag (--project-id, --region-id, --protection-profile-id) takes. */
export const ID_RANGE = `allowed: 1 to ${Number.MAX_SAFE_INTEGER}`;

export function checkOptions(options: ConformanceOptions): void {
  targetKind(options.target);
  const positive = (name: string, value: number | undefined) => {
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0))
      throw new UsageError(`--${name} needs a whole number (got ${value}); ${ID_RANGE}.`);
  };
  positive("project-id", options.projectId);
  positive("region-id", options.regionId);
  positive("protection-profile-id", options.protectionProfileId);
  const rates = `Allowed: at least ${MIN_RATE_LIMIT}, at most ${requestsPerSecond()} requests per second.`;
  if (options.rateLimit > requestsPerSecond())
    throw new UsageError(
      `--rate-limit ${options.rateLimit} is above the platform's ${rateText()} (x-rate-limits in the spec); the suite would meet ${requestRate().exceededStatus}s it caused. ${rates}`,
    );
  if (!(Number.isFinite(options.rateLimit) && options.rateLimit >= MIN_RATE_LIMIT))
    throw new UsageError(`--rate-limit ${options.rateLimit} is too slow to pace a run. ${rates}`);
  if (
    options.timeScale !== undefined &&
    !(Number.isFinite(options.timeScale) && options.timeScale > 0 && options.timeScale <= 1)
  )
    throw new UsageError(`--time-scale must be a number above 0 and at most 1 (got ${options.timeScale}).`);
  for (const name of ["apiKeyEnv", "resellerApiKeyEnv"] as const) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(options[name]))
      throw new UsageError(
        `--${name === "apiKeyEnv" ? "api-key-env" : "reseller-api-key-env"} must name an environment variable (got "${options[name]}").`,
      );
  }
}

/**
 * Refuses an `--only` glob that selects nothing, before anything is sent: a mistyped glob would
 * otherwise contact the target, run discovery and only then report that nothing ran. `known` is
 * what the globs match (default: the spec's operationIds, as `fuzz --only` matches them; a run
 * passes its result ids), `what` names those in the message.
 */
export function checkOnly(
  only: readonly string[],
  known: readonly string[] = specModel().operations.map((o) => o.operationId),
  what: { name: string; examples: string } = {
    name: "operation of the spec (by operationId)",
    examples: `"list*", "getCurrentClient"`,
  },
): void {
  const none = only.filter((glob) => !known.some((id) => picomatch.isMatch(id, glob)));
  if (none.length === 0) return;
  const globs = none.map((glob) => JSON.stringify(glob)).join(", ");
  throw new UsageError(
    `--only ${globs} ${none.length === 1 ? "matches" : "match"} no ${what.name}; allowed: globs over those ids, such as ${what.examples}.`,
  );
}
