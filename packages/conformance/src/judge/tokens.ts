// The tokens the traffic carried, each by its label ("token 1") and its standing: which of the
// APIs answered it 2xx so far, what tells a 401 from a 403 (src/rules/auth-*.ts). The token itself
// is never kept past this file: rules and the report see its label only.

import type { AuthSeen } from "../rules/types.js";

export interface Tokens {
  /**
   * What a request's Authorization header says: its scheme, its token's label and standing, and
   * `acceptedBy`, the standing itself (undefined without a token), which the judge grows after a
   * 2xx. Traffic that does not name the role (`role` undefined) is told it by `roles`.
   */
  of(header: string | undefined, role: AuthSeen["role"]): { auth: AuthSeen; acceptedBy?: Set<string> };
  /** The label of a token, what a recording writes instead of it (a token not seen yet is seen now). */
  label(token: string): string;
  /** Tokens first seen when `limit` were already kept: labelled, never given a standing. */
  readonly dropped: number;
}

export function createTokens(options: {
  /** Most tokens whose standing is kept (LIMITS.tokens). */
  limit: number;
  /** False when the traffic is known to carry no credentials though it had them (a sanitized HAR). */
  credentialsRecorded: boolean;
  /** The keys whose role is known (observe and verify: the key variables' values). */
  roles: { client?: string; reseller?: string };
  /** Told each token the first time it is seen (to redact it from everything kept). */
  learn(token: string): void;
}): Tokens {
  const kept = new Map<string, { label: string; acceptedBy: Set<string> }>();
  let labels = 0;
  let dropped = 0;

  // Past the bound a token gets a new label each time it is seen: it has no standing to keep.
  function known(token: string) {
    let seen = kept.get(token);
    if (!seen) {
      seen = { label: `token ${++labels}`, acceptedBy: new Set() };
      if (kept.size < options.limit) kept.set(token, seen);
      else dropped++;
      options.learn(token);
    }
    return seen;
  }

  function of(header: string | undefined, role: AuthSeen["role"]) {
    const recorded = options.credentialsRecorded;
    const none = { recorded, token: undefined, acceptedBy: new Set<string>(), role: undefined };
    if (header === undefined) return { auth: { ...none, scheme: undefined } };
    const [scheme = "", ...rest] = header.trim().split(/\s+/);
    const token = rest.join(" ");
    if (token === "") return { auth: { ...none, scheme } };
    const seen = known(token);
    const { client, reseller } = options.roles;
    role ??= token === client ? "client" : token === reseller ? "reseller" : undefined;
    return {
      // A copy: the standing before this exchange, whatever the judge learns from its answer.
      auth: { recorded, scheme, token: seen.label, acceptedBy: new Set(seen.acceptedBy), role },
      acceptedBy: seen.acceptedBy,
    };
  }

  return {
    of,
    label: (token) => known(token).label,
    get dropped() {
      return dropped;
    },
  };
}
