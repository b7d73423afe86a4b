// Tables the guides take from the description instead of repeating it: a guide names one with
// a marker line such as `<!-- spec:polling-intervals -->`.
import { buildModel, type Pagination, paginatedOperations } from "@platform-api/spec";
import type { Json } from "./operations.js";

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
  const polling = buildModel(doc).conventions.taskPolling;
  if (!polling) throw new Error("No operation carries x-task-polling; the tasks guide needs its intervals.");
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
  const period = (s: number) => ({ 1: "second", 60: "minute", 3600: "hour" })[s] ?? `${s} s`;
  return table(
    ["Applies to", "Limit", "Counted per", "When exceeded"],
    buildModel(doc).conventions.rateLimits.map((l) => [
      l.description ?? l.id,
      `${l.limit} per ${period(l.periodSeconds)}`,
      l.per.replace(/-/g, " "),
      code(String(l.exceededStatus)),
    ]),
  );
}

const pagedBy = (p: Pagination) =>
  p.style === "page"
    ? `by page: ${code(p.pageParam)} and ${code(p.limitParam)}, links in ${code(p.nextField)} / ${code(p.previousField)}`
    : `by offset: ${code(p.offsetParam)} and ${code(p.limitParam)}, total in ${code(p.countField)}`;

export function paginatedOperationsTable(doc: Json): string {
  const rows = paginatedOperations(buildModel(doc)).flatMap((op) =>
    op.pagination
      ? [[`[${op.method.toUpperCase()} ${code(op.path)}](ref:${op.operationId})`, pagedBy(op.pagination)]]
      : [],
  );
  return table(["Operation", "Paginated"], rows);
}

export const SPEC_TABLES: Record<string, (doc: Json) => string> = {
  "polling-intervals": pollingIntervalsTable,
  "rate-limits": rateLimitsTable,
  "paginated-operations": paginatedOperationsTable,
};
