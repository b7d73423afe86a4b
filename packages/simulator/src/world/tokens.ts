// Which tokens the simulator accepts: the world's, with the client and reseller token replaced by
// the flags, else by GCORE_API_KEY / GCORE_RESELLER_API_KEY, else kept as documented defaults.

import type { TokenEntry, World } from "./types.js";

export interface TokenInfo {
  label: string;
  token: string;
  kind: TokenEntry["kind"];
  /** Where the token came from; a token from the environment is never printed. */
  source: "flag" | "environment" | "default" | "seed";
  /** The environment variable it was read from. */
  variable?: string;
  read_only: boolean;
  expires_at: string | null;
}

interface TokenChoice {
  apiKey: string | undefined;
  resellerApiKey: string | undefined;
  env: Record<string, string | undefined>;
  fromSeed: boolean;
}

export function applyTokens(base: World, choice: TokenChoice): { world: World; tokens: TokenInfo[] } {
  const world = structuredClone(base);
  const sources = new Map<TokenEntry, Pick<TokenInfo, "source" | "variable">>();
  const replace = (label: "client" | "reseller", flag: string | undefined, variable: string) => {
    const value = flag ?? nonEmpty(choice.env[variable]);
    const kind = label;
    let entry =
      world.tokens.find((t) => t.label === label) ??
      world.tokens.find((t) => t.kind === kind && !t.read_only && t.expires_at == null);
    if (!entry && value !== undefined) {
      const owner =
        kind === "client"
          ? world.clients[0]?.id
          : world.clients.find((c) => c.reseller_id !== undefined)?.reseller_id;
      if (owner === undefined)
        throw new Error(
          `The world has no ${kind === "client" ? "client" : "reseller"} to give the ${label} token to.`,
        );
      entry = { token: value, kind, owner_id: owner, label };
      world.tokens.push(entry);
    }
    if (!entry) return;
    entry.label = label;
    if (value === undefined) return;
    world.tokens = world.tokens.filter((t) => t === entry || t.token !== value);
    entry.token = value;
    sources.set(entry, flag !== undefined ? { source: "flag" } : { source: "environment", variable });
  };
  replace("client", choice.apiKey, "GCORE_API_KEY");
  replace("reseller", choice.resellerApiKey, "GCORE_RESELLER_API_KEY");
  const tokens = world.tokens.map((t) => ({
    label: t.label ?? t.kind,
    token: t.token,
    kind: t.kind,
    ...(sources.get(t) ?? { source: choice.fromSeed ? ("seed" as const) : ("default" as const) }),
    read_only: t.read_only ?? false,
    expires_at: t.expires_at ?? null,
  }));
  return { world, tokens };
}

/** One line for the console: a token from the environment is named, never shown. */
export function describeToken(info: TokenInfo): string {
  const shown = info.source === "environment" ? `from $${info.variable}` : `'${info.token}'`;
  const notes = [
    info.read_only ? "read-only" : "",
    info.expires_at ? `expired ${info.expires_at}` : "",
  ].filter(Boolean);
  return `${info.label} ${shown}${notes.length > 0 ? ` (${notes.join(", ")})` : ""}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
