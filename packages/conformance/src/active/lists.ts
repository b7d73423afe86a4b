// Helpers the scenarios and drivers share: walking offset lists the way the seed says to read them,
// one page of a list read as a deviation when it is none, and the AI task list's pages typed as its
// tasks. (Every answer is judged against the spec by the transport: src/judge/judge.ts.)

import type { operations } from "@platform-api/spec/generated/openapi";
import { type OffsetWalk, walkOffsetList } from "../discovery/offset-walk.js";
import type { Request } from "../facts/api.js";
import { type OffsetList, readOffsetPage } from "../facts/offset.js";
import { pageList } from "../facts/pages.js";
import { operationAt } from "../facts/spec.js";
import type { Http } from "../http/http.js";
import { check, Deviation, expectStatus } from "./check.js";
import { readPage } from "./page-walk.js";

export { expectStatus };

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

type AiTasks = operations["listAiTasks"];
type AiTaskList = AiTasks["responses"][200]["content"]["application/json"];
export type AiTaskQuery = NonNullable<AiTasks["parameters"]["query"]>;
export type AiTask = NonNullable<AiTaskList["results"]>[number];

export interface AiTaskPage {
  url: string;
  count: number;
  /** Whether the answer carried its count (else `count` is the seed's default). */
  countSent: boolean;
  next: string | null;
  previous: string | null;
  results: AiTask[];
}

const AI_TASKS = "/streaming/ai/tasks";

/** One page of the AI task list, from a query or a `next`/`previous` link. */
export async function aiTaskPage(
  http: Http,
  from: { query?: AiTaskQuery; link?: string },
): Promise<AiTaskPage> {
  const list = pageList(operationAt("get", AI_TASKS));
  const page = await readPage(http, list, { method: "GET", path: AI_TASKS }, from);
  // The items are what the target sent: the schema results judge them; here they are read as tasks.
  return { ...page, results: page.items as AiTask[] };
}

/** One page of a list, its count and items read by the spec's field names; a deviation otherwise. */
export async function readListPage(http: Http, list: OffsetList, request: Request, query: Request["query"]) {
  const answer = await http.send({ ...request, query });
  expectStatus(answer, 200);
  const { countField, itemsField } = list.pagination;
  const read = readOffsetPage(list, answer.body, 0);
  check(read, `${answer.url}: no integer ${countField} and ${itemsField} array`);
  return { answer, count: read.count, items: read.items };
}

/** A page size that needs a few pages, never more than 8, never above the spec's maximum. */
export const walkLimit = (list: OffsetList, count: number) =>
  Math.min(list.limit.maximum ?? Number.POSITIVE_INFINITY, Math.max(1, Math.ceil(count / 4)));

/** A query as it reads in a URL ("limit=1&offset=0"), for titles and the dry run. */
export const queryText = (values: Record<string, number | undefined>) =>
  Object.entries(values)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
