// Page pagination on /streaming/ai/tasks, what is the AI task list's own: `next`/`previous` keep
// the filters, the default order is started_at descending, `ordering` sorts, filters and search
// return only matches. What holds for every page list (count, links, last page, page length,
// default limit) is a check of the registry (pagination.page.*).

import { operationById } from "@platform-api/spec";
import type { Http } from "../src/http.js";
import { type AiTask, type AiTaskQuery, aiTaskPage } from "../src/lists.js";
import { linkQuery } from "../src/pages.js";
import { check, type Need, scenario } from "../src/scenario.js";
import { queryValues, schemaAt, specModel, successSchemaPointer } from "../src/spec.js";

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
// The ordering keys that are fields of a task sort ascending by that field (the spec's words); the
// one that is not (started_at) is the default order's key, whose direction the spec leaves open.
const orderings = queryValues<Ordering>(OP, "ordering");
const fieldOrderings = orderings.filter((key): key is Ordering & keyof AiTask => taskFields.includes(key));
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
    id: "pagination.page.links-keep-filters",
    title: "next and previous keep the filters, ordering and limit of the request",
    severity: "must",
    operation: OP,
    needs: NEEDS,
    calls: [
      "GET ?task_name=<each>&limit=1",
      `GET ?task_name=<the most common>&ordering=${fieldOrderings[0]}&limit=3`,
      "GET <next>",
      "GET <next's previous>",
    ],
  },
  async ({ http, skip }) => {
    // The task name with the most tasks, so that it fills several pages of 3.
    let task_name: TaskName | undefined;
    let most = -1;
    for (const name of taskNames) {
      const { count } = await aiTaskPage(http, { query: { task_name: name, limit: 1 } });
      if (count > most) [task_name, most] = [name, count];
    }
    const ordering = fieldOrderings[0];
    if (task_name === undefined || ordering === undefined)
      return skip("the spec lists no task_name or no ordering by a task field");
    const query = { task_name, ordering, limit: 3 };
    const page1 = await aiTaskPage(http, { query });
    if (page1.countSent ? page1.count <= 3 : page1.next === null)
      return skip(`only ${page1.countSent ? page1.count : "one page of"} ${task_name} tasks: a single page`);
    check(page1.next !== null, "page 1 has next null although count > limit");
    const kept = (link: string, which: string) => {
      const params = new URLSearchParams(linkQuery(link));
      for (const [name, value] of Object.entries(query))
        check(params.get(name) === String(value), `${which} "${link}" does not keep ${name}=${value}`);
    };
    kept(page1.next as string, "next");
    const page2 = await aiTaskPage(http, { link: page1.next as string });
    check(
      page2.results.every((t) => t.task_name === task_name),
      `following next "${page1.next}" returned tasks that are not ${task_name}`,
    );
    check(page2.previous !== null, "page 2 has previous null");
    kept(page2.previous as string, "previous");
  },
);

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
    id: "pagination.page.ordering-sorts",
    title: `ordering=${fieldOrderings.join(", ")} sort ascending across pages`,
    severity: "must",
    operation: OP,
    needs: NEEDS,
    calls: fieldOrderings.map((field) => `GET ?ordering=${field} (every page)`),
  },
  async ({ http }) => {
    const wrong: string[] = [];
    for (const field of fieldOrderings) {
      const values = (await everything(http, { ordering: field })).map((t) => String(t[field]));
      const at = values.findIndex((v, i) => i > 0 && (values[i - 1] as string) > v);
      if (at > 0)
        wrong.push(`ordering=${field}: "${values[at - 1]}" comes before "${values[at]}" (item ${at + 1})`);
    }
    check(wrong.length === 0, wrong.join("; "));
  },
);

scenario(
  {
    id: "pagination.page.filters",
    title: "status, task_name and task_id filters return exactly the matching tasks",
    severity: "must",
    operation: OP,
    needs: NEEDS,
    calls: [
      "GET (every page)",
      "GET ?status=<a status>",
      "GET ?task_name=<a task name>",
      "GET ?task_id=<one>",
    ],
  },
  async ({ http, skip }) => {
    const all = await everything(http);
    const sample = all[Math.floor(all.length / 2)];
    if (!sample) return skip("no AI tasks");
    // A task name the spec lists (the data's may be off the spec: the schema scenario says so).
    const taskName = taskNames.at(-1);
    if (taskName === undefined) return skip("the spec lists no task_name");
    const wrong: string[] = [];
    for (const [name, value] of [
      ["status", sample.status],
      ["task_name", taskName],
      ["task_id", sample.task_id],
    ] as const) {
      const got = await everything(http, { [name]: value });
      const expected = all.filter((t) => t[name] === value).length;
      const stray = got.filter((t) => t[name] !== value);
      if (stray.length > 0)
        wrong.push(`${name}=${value} returned ${stray.length} tasks with another ${name}`);
      else if (got.length !== expected)
        wrong.push(`${name}=${value} returned ${got.length} tasks; ${expected} match`);
    }
    check(wrong.length === 0, wrong.join("; "));
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
