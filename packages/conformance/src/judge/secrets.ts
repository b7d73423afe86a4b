// The secrets the traffic carried (tokens, credentials known by their names, an active run's keys):
// each is redacted from everything the judge keeps from the moment it is learned, and once more
// from the report, so one seen late leaves no trace in earlier evidence either.

import { hideCredentials } from "../facts/credential-names.js";
import { createGrowingRedactor, createUsageRedactor } from "../shared/redact.js";

/** Distinct tokens redacted from what is kept (each a few dozen bytes; far more than any traffic holds). */
export const REDACTED_TOKENS = 1024;

export interface Secrets {
  /** Redacted from then on (again: nothing); past `limit` secrets, only token-shaped text still is. */
  learn(secret: string): void;
  /** Redacts every secret learned so far, the key variables' values, and credentials by their names. */
  redact(text: string): string;
}

export function createSecrets(options: {
  /** Most distinct secrets learned (REDACTED_TOKENS). */
  limit: number;
  /** Known before any exchange (an active run's keys); not counted against `limit`. */
  known: readonly (string | undefined)[];
  /** The environment and the names of the variables holding keys (the usual key variables). */
  env: Record<string, string | undefined>;
  keyVariables: readonly string[];
}): Secrets {
  const usage = createUsageRedactor(options.env, [...options.keyVariables]);
  // Each secret's patterns built once, when it is learned (a token per request stays linear).
  const tokenRedact = createGrowingRedactor();
  for (const secret of options.known) if (secret) tokenRedact.add(secret);
  const learned = new Set<string>();
  return {
    learn(secret) {
      if (learned.size >= options.limit || learned.has(secret)) return;
      learned.add(secret);
      tokenRedact.add(secret);
    },
    // Credentials known by their names too (a client's password field): a recording and the report
    // both take this redactor.
    redact: (text) => hideCredentials(usage(tokenRedact(text))),
  };
}
