import { badRequest } from "../errors.js";
import type { AiTaskEntry } from "../world/types.js";
import { type Handler, ok } from "./types.js";

const ASCENDING_KEYS = { task_id: "task_id", status: "status", task_name: "task_name" } as const;

/**
 * Page-paginated AI tasks. Where the seed leaves the rule open the simulator picks one, and its
 * README says which: `date_created` keeps tasks started at or after it, `ordering=started_at`
 * sorts ascending (only the default order, `started_at` descending, is stated), a page past the
 * last is empty, and `limit` must be at least 1.
 */
export const listAiTasks: Handler = ({ query, rawQuery, caller, store }) => {
  const page: number = query.page ?? 1;
  const limit: number = query.limit ?? 10;
  if (limit < 1) throw badRequest(`Query parameter "limit" must be at least 1 (got ${limit}).`);
  const since = query.date_created === undefined ? undefined : Date.parse(query.date_created);
  const needle = typeof query.search === "string" ? query.search.toLowerCase() : undefined;

  const tasks = store.world.ai_tasks.filter((t) => {
    const r = t.record;
    return (
      t.client_id === caller.clientId &&
      (query.task_id === undefined || r.task_id === query.task_id) &&
      (query.task_name === undefined || r.task_name === query.task_name) &&
      (query.status === undefined || r.status === query.status) &&
      (since === undefined || Number.isNaN(since) || Date.parse(t.started_at) >= since) &&
      (needle === undefined || searchable(t).includes(needle))
    );
  });
  const ordering = query.ordering as keyof typeof ASCENDING_KEYS | "started_at" | undefined;
  if (ordering === undefined) tasks.sort((a, b) => b.started_at.localeCompare(a.started_at));
  else if (ordering === "started_at") tasks.sort((a, b) => a.started_at.localeCompare(b.started_at));
  else tasks.sort((a, b) => String(a.record[ordering]).localeCompare(String(b.record[ordering])));

  const pages = Math.max(1, Math.ceil(tasks.length / limit));
  const link = (target: number) => {
    const params = new URLSearchParams(rawQuery);
    params.delete("page");
    params.delete("limit");
    params.append("page", String(target));
    params.append("limit", String(limit));
    return params.toString();
  };
  return ok({
    count: tasks.length,
    next: page < pages ? link(page + 1) : null,
    previous: page > 1 ? link(Math.min(page - 1, pages)) : null,
    results: tasks.slice((page - 1) * limit, page * limit).map((t) => t.record),
  });
};

function searchable(task: AiTaskEntry): string {
  const r = task.record;
  return [r.task_id, r.task_name, r.status, JSON.stringify(r.task_data)].join(" ").toLowerCase();
}
