// Helpers the scenarios share: walking offset lists the way the seed says to read them, an item's
// identity, and the AI task list's pages typed as its tasks. (Every answer is judged against the
// spec by the transport: src/judge.ts.)

import type { operations } from "@platform-api/spec/generated/openapi";
import type { Http } from "../http/http.js";
import { fieldOf } from "../shared/json.js";
import type { Request } from "../spec/api.js";
import { type OffsetList, type OffsetWalk, walkOffsetList } from "../spec/offset.js";
import { pageList, readPage } from "../spec/pages.js";
import { operationAt } from "../spec/spec.js";
import { Deviation, expectStatus } from "./check.js";

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

/** Identity of a list item: its id when it has one, else the whole record. */
export function identity(item: unknown): string {
  const id = fieldOf(item, "id");
  if (typeof id === "number" || typeof id === "string") return `id:${id}`;
  const taskId = fieldOf(item, "task_id");
  if (typeof taskId === "string") return `task_id:${taskId}`;
  return JSON.stringify(item);
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
