// Tables the guides take from the description instead of repeating it: a guide names one with
// a marker line such as `<!-- spec:polling-intervals -->`.
import { type Json, listOperations } from "./operations.js";

type Row = string[];

function table(head: Row, rows: Row[]): string {
  const line = (cells: Row) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "-")), ...rows.map(line)].join("\n");
}

const code = (text: string) => `\`${text}\``;

// Written the way the platform's documentation writes them: "60-120 s", "5-15 min".
const inMinutes = (...values: number[]) => values.every((v) => v >= 300 && v % 60 === 0);
const seconds = (value: number) => (inMinutes(value) ? `${value / 60} min` : `${value} s`);

export function pollingIntervalsTable(doc: Json): string {
  const getTask = listOperations(doc).find((op) => op.node["x-task-polling"]);
  if (!getTask) throw new Error("No operation carries x-task-polling; the tasks guide needs its intervals.");
  const polling = getTask.node["x-task-polling"] as {
    intervals: {
      operation: string;
      taskType?: string;
      typicalDurationSeconds: { min: number; max: number };
      pollIntervalSeconds: number;
    }[];
  };
  return table(
    ["Operation", "Task type", "Typical duration", "Poll every"],
    polling.intervals.map((row) => {
      const { min, max } = row.typicalDurationSeconds;
      const duration = inMinutes(min, max) ? `${min / 60}-${max / 60} min` : `${min}-${max} s`;
      return [
        row.operation,
        row.taskType ? code(row.taskType) : "not shown",
        duration,
        seconds(row.pollIntervalSeconds),
      ];
    }),
  );
}

export function rateLimitsTable(doc: Json): string {
  const limits = (doc["x-rate-limits"] ?? []) as {
    description: string;
    limit: number;
    periodSeconds: number;
    per: string;
    exceededStatus: number;
  }[];
  if (limits.length === 0)
    throw new Error("The description has no x-rate-limits; the rate limits guide needs them.");
  const period = (s: number) => ({ 1: "second", 60: "minute", 3600: "hour" })[s] ?? `${s} s`;
  return table(
    ["Applies to", "Limit", "Counted per", "When exceeded"],
    limits.map((l) => [
      l.description,
      `${l.limit} per ${period(l.periodSeconds)}`,
      l.per.replace(/-/g, " "),
      code(String(l.exceededStatus)),
    ]),
  );
}

export function paginatedOperationsTable(doc: Json): string {
  const rows = listOperations(doc)
    .filter((op) => op.node["x-pagination"])
    .map((op) => {
      const p = op.node["x-pagination"] as Json;
      const how =
        p.style === "page"
          ? `by page: ${code(String(p.pageParam))} and ${code(String(p.limitParam))}, links in ${code(String(p.nextField))} / ${code(String(p.previousField))}`
          : `by offset: ${code(String(p.offsetParam))} and ${code(String(p.limitParam))}, total in ${code(String(p.countField))}`;
      return [`[${op.method.toUpperCase()} ${code(op.path)}](ref:${op.operationId})`, how];
    });
  return table(["Operation", "Paginated"], rows);
}

export const SPEC_TABLES: Record<string, (doc: Json) => string> = {
  "polling-intervals": pollingIntervalsTable,
  "rate-limits": rateLimitsTable,
  "paginated-operations": paginatedOperationsTable,
};
