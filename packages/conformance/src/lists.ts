// Helpers the scenarios share: validating answers against the spec, walking offset and page lists
// the way the seed says to read them, and the polling intervals the spec recommends.

import type { SpecValidator } from "@platform-api/spec";
import type { Answer, Call, Http } from "./http.js";
import { check } from "./scenario.js";

/** Every answer valid against the spec: status documented, content type, body schema. */
export function checkAgainstSpec(validator: SpecValidator, answers: Answer[]): void {
  const problems: string[] = [];
  for (const a of answers) {
    const errors = validator.validateResponse({
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

export function expectStatus(answer: Answer, ...allowed: number[]): void {
  check(
    allowed.includes(answer.status),
    `${answer.method} ${answer.url} answered ${answer.status}; expected ${allowed.join(" or ")}${
      answer.text ? ` (body: ${answer.text.slice(0, 200)})` : ""
    }`,
  );
}

export interface OffsetPage {
  offset: number;
  count: number;
  results: unknown[];
}

/** Reads an offset list by increasing offset by limit until offset >= count (the seed's rule). */
export async function walkOffset(http: Http, call: Call, limit: number, maxPages = 30) {
  const pages: OffsetPage[] = [];
  for (let offset = 0; pages.length < maxPages; offset += limit) {
    const answer = await http.call({ ...call, query: { ...call.query, limit, offset } });
    expectStatus(answer, 200);
    const { count, results } = answer.body ?? {};
    check(
      Number.isInteger(count) && Array.isArray(results),
      `${answer.url}: no integer count and results array`,
    );
    pages.push({ offset, count, results });
    if (offset + limit >= count) return { pages, items: pages.flatMap((p) => p.results), complete: true };
  }
  return { pages, items: pages.flatMap((p) => p.results), complete: false };
}

/** Identity of a list item: its id when it has one, else the whole record. */
export function identity(item: unknown): string {
  const record = item as Record<string, unknown> | null;
  if (record && (typeof record.id === "number" || typeof record.id === "string")) return `id:${record.id}`;
  if (record && typeof record.task_id === "string") return `task_id:${record.task_id}`;
  return JSON.stringify(item);
}

export interface AiTaskPage {
  url: string;
  count: number;
  next: string | null;
  previous: string | null;
  results: Record<string, any>[];
}

const AI_TASKS = "/streaming/ai/tasks";

/** One page of the AI task list, from a query or a `next`/`previous` link. */
export async function aiTaskPage(
  http: Http,
  from: { query?: Call["query"]; link?: string },
): Promise<AiTaskPage> {
  const answer = await http.call(
    from.link !== undefined
      ? { method: "GET", path: AI_TASKS, rawQuery: linkQuery(from.link) }
      : { method: "GET", path: AI_TASKS, query: from.query },
  );
  expectStatus(answer, 200);
  const body = answer.body ?? {};
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
export async function walkAiTasks(http: Http, query: Call["query"], maxPages = 40) {
  const pages = [await aiTaskPage(http, { query })];
  while (pages.length < maxPages) {
    const last = pages[pages.length - 1] as AiTaskPage;
    if (last.next === null) return { pages, items: pages.flatMap((p) => p.results), complete: true };
    pages.push(await aiTaskPage(http, { link: last.next }));
  }
  return { pages, items: pages.flatMap((p) => p.results), complete: false };
}

/** The spec's recommended poll interval for a task type (x-task-polling), in seconds. */
export function pollIntervalSeconds(
  doc: Record<string, any>,
  taskType: string,
): { poll: number; maxDuration: number } {
  const polling = doc.paths?.["/cloud/v1/tasks/{task_id}"]?.get?.["x-task-polling"];
  const row = polling?.intervals?.find((r: any) => r.taskType === taskType);
  return { poll: row?.pollIntervalSeconds ?? 5, maxDuration: row?.typicalDurationSeconds?.max ?? 60 };
}
