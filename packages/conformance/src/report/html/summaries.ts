// Repetition said once, with a count: a reason that met the same answer fifty times, a list of
// statuses, the skip reasons of a run. Only what the page shows is summarised; report.json keeps
// every reason as the run wrote it.

/** Values with how often each came, most frequent first, ties in the order first met: "500 ×52, 200 ×248". */
export function counted(values: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

export function countsText(values: readonly string[]): string {
  return counted(values)
    .map(([value, n]) => (n === 1 ? value : `${value} ×${n}`))
    .join(", ");
}

/** A run of at least four comma-separated short items of which some repeat ("500, 500, 200, 500, …"). */
const LIST = /(?:[\w./-]{1,24}, ){3,}[\w./-]{1,24}(?:, …)?/g;

/**
 * A reason as the page shows it: a comma-separated list whose items repeat collapsed to counts
 * ("the burst met 500 ×52, 200 ×248"), and identical lines said once with how often they came.
 */
export function summariseReason(reason: string): string {
  const lines = reason.split("\n").map((line) =>
    line.replace(LIST, (list) => {
      const items = list.split(", ").filter((item) => item !== "…");
      if (new Set(items).size === items.length) return list;
      return `${countsText(items)}${list.endsWith("…") ? ", …" : ""}`;
    }),
  );
  return counted(lines)
    .sort((a, b) => lines.indexOf(a[0]) - lines.indexOf(b[0]))
    .map(([line, n]) => (n === 1 ? line : `${line} (×${n})`))
    .join("\n");
}
