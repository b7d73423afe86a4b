// Helpers the scenarios share: validating answers against the spec, and walking offset and page
// lists the way the seed says to read them.

import type { operations } from "@platform-api/spec/generated/openapi";
import type { Request } from "./api.js";
import { check, Deviation, expectStatus } from "./check.js";
import type { Answer, Http } from "./http.js";
import { fieldOf } from "./json.js";
import { type OffsetList, type OffsetWalk, walkOffsetList } from "./offset.js";
import { specValidator } from "./spec.js";

export { expectStatus };

/** Every answer valid against the spec: status documented, content type, body schema. */
export function checkAgainstSpec(answers: Answer[]): void {
  const problems: string[] = [];
  for (const a of answers) {
    const errors = specValidator().validateResponse({
      method: a.method,
      path: a.template,
      status: a.status,
      contentType: a.contentType,
      body: a.body,
      hasBody: a.text !== "",
    });
    if (a.text !== "" && a.body === undefined && /json/.test(a.contentType ?? ""))
      errors.push("the body is not valid JSON");
    for (const e of errors) problems.push(`${a.method} ${a.url} → ${a.status}: ${e}`);
  }
  check(problems.length === 0, `answers off the spec:\n${problems.slice(0, 10).join("\n")}`);
}

/** Reads an offset list by increasing offset by limit until offset >= count (the seed's rule). */
export function walkOffset(
  http: Http,
  list: OffsetList,
  request: Request,
  limit: number | undefined,
  maxPages = 30,
): Promise<OffsetWalk> {
  return walkOffsetList(list, (query) => http.send({ ...request, query: { ...request.query, ...query } }), {
    limit,
    maxPages,
    refused: (answer) => {
      expectStatus(answer, 200);
      throw new Deviation(
        `${answer.url}: no integer ${list.pagination.countField} and ${list.pagination.itemsField} array`,
      );
    },
  });
}

/** Identity of a list item: its id when it has one, else the whole record. */
export function identity(item: unknown): string {
  const id = fieldOf(item, "id");
  if (typeof id === "number" || typeof id === "string") return `id:${id}`;
  const taskId = fieldOf(item, "task_id");
  if (typeof taskId === "string") return `task_id:${taskId}`;
  return JSON.stringify(item);
}

type AiTasks = operations["listAiTasks"];
export type AiTaskQuery = NonNullable<AiTasks["parameters"]["query"]>;
export type AiTask = AiTaskPage["results"][number];

export interface AiTaskPage {
  url: string;
  count: number;
  next: string | null;
  previous: string | null;
  results: AiTasks["responses"][200]["content"]["application/json"]["results"];
}

const AI_TASKS = "/streaming/ai/tasks";

/** One page of the AI task list, from a query or a `next`/`previous` link. */
export async function aiTaskPage(
  http: Http,
  from: { query?: AiTaskQuery; link?: string },
): Promise<AiTaskPage> {
  const answer = await http.call(
    from.link !== undefined
      ? { method: "GET", path: AI_TASKS, rawQuery: linkQuery(from.link) }
      : { method: "GET", path: AI_TASKS, query: from.query },
  );
  expectStatus(answer, 200);
  const body = answer.body;
  check(
    Number.isInteger(body.count) && Array.isArray(body.results),
    `${answer.url}: no integer count and results array`,
  );
  return {
    url: answer.url,
    count: body.count,
    next: body.next ?? null,
    previous: body.previous ?? null,
    results: body.results,
  };
}

/** `next` is "the query-string part"; accept a full URL or a leading "?" too. */
export function linkQuery(link: string): string {
  const q = link.includes("?") ? link.slice(link.indexOf("?") + 1) : link;
  return q.replace(/^\?/, "");
}

/** Follows `next` from a first query until it is null; bounded. */
export async function walkAiTasks(http: Http, query: AiTaskQuery, maxPages = 40) {
  const pages = [await aiTaskPage(http, { query })];
  while (pages.length < maxPages) {
    const last = pages[pages.length - 1] as AiTaskPage;
    if (last.next === null) return { pages, items: pages.flatMap((p) => p.results), complete: true };
    pages.push(await aiTaskPage(http, { link: last.next }));
  }
  return { pages, items: pages.flatMap((p) => p.results), complete: false };
}
