import type { components } from "@platform-api/spec/generated/openapi";
import { badRequest } from "../errors.js";
import type { AiTaskEntry, AiTaskOrderingField } from "../world/types.js";
import type { Handler, QueryOf } from "./types.js";

type Ordering = NonNullable<QueryOf<"listAiTasks">["ordering"]>;
type RecordOrdering = Exclude<Ordering, AiTaskOrderingField>;

/** The default order, stated by the spec's `ordering` parameter: `started_at`, newest first. */
const DEFAULT_ORDER: AiTaskOrderingField = "started_at";

/**
 * Page-paginated AI tasks. Where the seed leaves the rule open the simulator picks one, and its
 * README says which: `date_created` keeps tasks started at or after it, an `ordering` key sorts
 * ascending (only the default order, `started_at` descending, is stated), a page past the last is
 * empty, and `limit` must be at least 1.
 */
export const listAiTasks: Handler<"listAiTasks"> = ({ query, rawQuery, caller, store }) => {
  const { page, limit } = query;
  if (limit < 1) throw badRequest(`Query parameter "limit" must be at least 1 (got ${limit}).`);
  const since = query.date_created === undefined ? undefined : Date.parse(query.date_created);
  const needle = query.search?.toLowerCase();

  const tasks = store.world.ai_tasks.filter((t) => {
    const r = t.record;
    return (
      t.client_id === caller.clientId &&
      (query.task_id === undefined || r.task_id === query.task_id) &&
      (query.task_name === undefined || r.task_name === query.task_name) &&
      (query.status === undefined || r.status === query.status) &&
      (since === undefined || Number.isNaN(since) || Date.parse(t.started_at) >= since) &&
      (needle === undefined || searchable(t.record).includes(needle))
    );
  });
  const { ordering } = query;
  if (ordering === undefined) tasks.sort((a, b) => b[DEFAULT_ORDER].localeCompare(a[DEFAULT_ORDER]));
  else tasks.sort((a, b) => sortKey(a, ordering).localeCompare(sortKey(b, ordering)));

  const pages = Math.max(1, Math.ceil(tasks.length / limit));
  const link = (target: number) => {
    const params = new URLSearchParams(rawQuery);
    params.delete("page");
    params.delete("limit");
    params.append("page", String(target));
    params.append("limit", String(limit));
    return params.toString();
  };
  return {
    status: 200,
    body: {
      count: tasks.length,
      next: page < pages ? link(page + 1) : null,
      previous: page > 1 ? link(Math.min(page - 1, pages)) : null,
      results: tasks.slice((page - 1) * limit, page * limit).map((t) => t.record),
    },
  };
};

const isRecordOrdering = (key: Ordering, task: AiTaskEntry): key is RecordOrdering => key in task.record;

/** An ordering key is a field of the AI task, or a date-time the world keeps beside it. */
function sortKey(task: AiTaskEntry, key: Ordering): string {
  return isRecordOrdering(key, task) ? String(task.record[key]) : task[key];
}

function searchable(task: components["schemas"]["AiTask"]): string {
  return [task.task_id, task.task_name, task.status, JSON.stringify(task.task_data)].join(" ").toLowerCase();
}
