import { badRequest } from "../errors.js";
import { aiTasksByDefault } from "./query-rules.js";
import type { Handler } from "./types.js";

/**
 * Page-paginated AI tasks. The filters, `search` and `ordering` are the query rules' (query.ts,
 * query-rules.ts); where the seed leaves a rule open the simulator picks one, and its README says
 * which: a page past the last is empty, and `limit` must be at least 1.
 */
export const listAiTasks: Handler<"listAiTasks"> = ({ query, rawQuery, caller, store, select }) => {
  const { page, limit } = query;
  if (limit < 1) throw badRequest(`Query parameter "limit" must be at least 1 (got ${limit}).`);
  const own = store.world.ai_tasks.filter((t) => t.client_id === caller.clientId).map((t) => t.record);
  // The default order, stated by the spec's `ordering` parameter: started_at, newest first.
  const tasks = select(query.ordering === undefined ? aiTasksByDefault(own) : own);

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
      results: tasks.slice((page - 1) * limit, page * limit),
    },
  };
};
