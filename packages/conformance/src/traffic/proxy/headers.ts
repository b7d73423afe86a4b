// What of a message's head the proxy passes on: the end-to-end headers as written (their names'
// case, repeated ones in order) and the path of a request-target, never its host.

/** The connection's own headers (RFC 9110 §7.6.1), and Host: the upstream's is written instead. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
  "host",
]);

/** Pairs of a raw header list, without the connection's own headers and those it names. */
export function endToEnd(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === "connection")
      for (const token of (raw[i + 1] ?? "").split(",")) named.add(token.trim().toLowerCase());
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] ?? "";
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    kept.push(name, raw[i + 1] ?? "");
  }
  return kept;
}

/** The path and query of a request-target, whatever its form ("/x?y", "http://host/x?y"). */
export function pathOf(target: string): string {
  if (target.startsWith("/")) return target;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return `/${target}`;
  }
}

export function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) out.push([raw[i] ?? "", raw[i + 1] ?? ""]);
  return out;
}

/** Header pairs grouped by name (as first written), repeated values kept in order. */
export function groupedPairs(raw: string[]): [string, string[]][] {
  const groups = new Map<string, [string, string[]]>();
  for (const [name, value] of pairs(raw)) {
    const group = groups.get(name.toLowerCase());
    if (group) group[1].push(value);
    else groups.set(name.toLowerCase(), [name, [value]]);
  }
  return [...groups.values()];
}
