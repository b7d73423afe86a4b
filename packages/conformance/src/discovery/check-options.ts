// What a run's options may be, checked before anything is sent: every producer refuses the same
// bad target, rate, id or glob with the same message (exit code 2).

import picomatch from "picomatch";
import { MIN_RATE_LIMIT, rateText, requestRate, requestsPerSecond } from "../facts/rate.js";
import { specModel } from "../facts/spec.js";
import type { ConformanceOptions } from "../shared/conformance-options.js";
import { hideUrlPasswords } from "../shared/redact.js";
import { UsageError } from "../shared/usage-error.js";

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
