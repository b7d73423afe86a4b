// A call's URL: its path template filled from its parameters, its query, under the target's base path.

import type { Request } from "../facts/api.js";

/** The URL path and query of a call, under `prefix` (the target's base path). */
export function urlOf(
  prefix: string,
  { path, params = {}, query = {}, rawQuery }: Pick<Request, "path" | "params" | "query" | "rawQuery">,
): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path parameter ${name} of ${path} has no value`);
    return encodeURIComponent(String(value));
  });
  let search = "";
  if (rawQuery !== undefined) search = rawQuery.replace(/^\?/, "");
  else {
    const qs = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) qs.append(name, String(v));
    }
    search = qs.toString();
  }
  return `${prefix}${filled}${search ? `?${search}` : ""}`;
}
