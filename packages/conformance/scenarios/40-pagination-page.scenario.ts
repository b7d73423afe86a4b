// Page pagination on /streaming/ai/tasks, what is the AI task list's own: the default order is
// started_at descending, search matches. What holds for every page list (count, links that keep the
// filters, last page, page length, default limit, its filters and orderings) is a rule of the
// registry (src/rules/ pagination.page.*), driven by src/active/drivers/page-list.ts.

import { operationById } from "@platform-api/spec";
import { type AiTask, type AiTaskQuery, aiTaskPage } from "../src/active/lists.js";
import { check, type Need, scenario } from "../src/active/scenario.js";
import { queryValues, schemaAt, specModel, successSchemaPointer } from "../src/facts/spec.js";
import type { Http } from "../src/http/http.js";

const OP = "listAiTasks";
const NEEDS: Need[] = ["state"];
const ids = (items: AiTask[]) => items.map((t) => t.task_id);

type Ordering = NonNullable<AiTaskQuery["ordering"]>;
type TaskName = NonNullable<AiTaskQuery["task_name"]>;
const listAiTasks = operationById(specModel(), OP);
const pagination = listAiTasks.pagination;
if (pagination?.style !== "page") throw new Error(`${OP} is not a page list in the spec's x-pagination.`);
const taskFields = Object.keys(
  schemaAt(successSchemaPointer(listAiTasks), "properties", pagination.itemsField, "items", "properties") ??
    {},
);
// The ordering key that is not a field of a task (started_at) is the default order's key, whose
// direction the spec leaves open (the others are the registry's pagination.page.ordering-sorts).
const orderings = queryValues<Ordering>(OP, "ordering");
const startedAt = orderings.find((key) => !taskFields.includes(key));
const taskNames = queryValues<TaskName>(OP, "task_name");

/**
 * Every task of a query, read by page number rather than by following `next`, so that only the
 * link scenarios depend on the links being right.
 */
async function everything(http: Http, query: AiTaskQuery = {}) {
  const limit = 50;
  const items: AiTask[] = [];
  for (let page = 1; page <= 40; page++) {
    const got = await aiTaskPage(http, { query: { ...query, page, limit } });
    items.push(...got.results);
    // The count may be left out (the seed gives it a default): then a short page is the last.
    if (got.results.length < limit || (got.countSent && page * limit >= got.count)) return items;
  }
  check(false, "more than 40 pages of 50 AI tasks: too many to compare");
  return items;
}

scenario(
  {
    id: "pagination.page.default-order",
    title: "without ordering, tasks come by started_at descending",
    severity: "must",
    operation: OP,
    needs: NEEDS,
    calls: ["GET (every page)", `GET ?ordering=${startedAt} (every page)`],
  },
  async ({ http, skip }) => {
    // started_at is not a field of the task, so compare with ordering=started_at, whose direction
    // the seed does not give: the default must be that order or its reverse (descending).
    if (startedAt === undefined) return skip("the spec lists no ordering key that is not a task field");
    const byDefault = ids(await everything(http));
    const byStartedAt = ids(await everything(http, { ordering: startedAt }));
    const same = JSON.stringify(byDefault) === JSON.stringify(byStartedAt);
    const reversed = JSON.stringify(byDefault) === JSON.stringify([...byStartedAt].reverse());
    check(same || reversed, "the default order is neither the started_at order nor its reverse");
  },
);

scenario(
  {
    id: "pagination.page.search",
    title: "search matches task_id, task_name, status or task_data, fully or partly",
    severity: "must",
    operation: OP,
    needs: NEEDS,
    calls: ["GET (every page)", "GET ?search=<part of a task_id>", "GET ?search=<part of a task_name>"],
  },
  async ({ http, skip }) => {
    const all = await everything(http);
    const target = all[0];
    if (!target) return skip("no AI tasks");
    const part = String(target.task_id).slice(9, 18); // "xxxx-xxxx": a partial id
    // The last word of the longest task name ("moderation" of content-moderation): a partial name.
    const longest = [...taskNames].sort((a, b) => b.length - a.length)[0] ?? target.task_name ?? "";
    const namePart = longest.split(/[^a-z0-9]+/i).at(-1) ?? longest;
    const text = (t: AiTask) =>
      [t.task_id, t.task_name, t.status, JSON.stringify(t.task_data ?? {})].join(" ").toLowerCase();
    const wrong: string[] = [];
    for (const term of [part, namePart]) {
      const got = await everything(http, { search: term });
      const stray = got.filter((t) => !text(t).includes(term.toLowerCase()));
      if (stray.length > 0)
        wrong.push(
          `search=${term} returned ${stray.length} tasks that do not contain it (e.g. ${stray[0]?.task_id})`,
        );
      if (term === part && !got.some((t) => t.task_id === target.task_id))
        wrong.push(`search=${term} did not return task ${target.task_id}, whose id contains it`);
      const named = all.filter((t) => (t.task_name ?? "").toLowerCase().includes(term.toLowerCase())).length;
      if (term === namePart && got.length < named)
        wrong.push(
          `search=${term} returned ${got.length} tasks, fewer than the ${named} whose task_name contains it`,
        );
    }
    check(wrong.length === 0, wrong.join("; "));
  },
);
