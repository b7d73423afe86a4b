// What the suite prints or writes never holds a key, in any form a target might echo it back in:
// the client's redactor (as sent, percent-encoded, escaped, hex, base64, the secret part alone).
// Text must be redacted whole, before it is cut to an excerpt: a cut through a key leaves a piece
// no redactor can recognise.

import { createRedactor as createClientRedactor, REDACTED } from "@platform-api/client/redact";

export { REDACTED };

/** A function that redacts every form of every key (keys shorter than 4 characters are ignored). */
export function createRedactor(secrets: (string | undefined)[]): (text: string) => string {
  return createClientRedactor(secrets).text;
}

/** Deep copy with every string redacted. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  return JSON.parse(JSON.stringify(value), (_key, v) => (typeof v === "string" ? redact(v) : v));
}

/**
 * Anything shaped like a platform token (`<digits>$<secret>`, the `$` possibly percent-encoded or
 * escaped): what a usage error may echo when a token was typed where a flag's value belongs.
 */
const TOKEN_SHAPED = /\d+(?:\$|%24|\\u0024)[^\s"'`,;:|()<>[\]{}]{4,}/gi;

/**
 * The redactor of messages about the command line (usage errors, exit 2), before any target is
 * known: the keys in the environment variables that hold them, and anything shaped like a token.
 */
export function createUsageRedactor(
  env: Record<string, string | undefined>,
  keyVariables: (string | undefined)[],
): (text: string) => string {
  const keys = createRedactor(keyVariables.map((name) => (name ? env[name] : undefined)));
  return (text) => keys(text).replace(TOKEN_SHAPED, REDACTED);
}
