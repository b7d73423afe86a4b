// One defect each, and the scenarios each must fail. The teeth test runs the whole suite against
// every one and compares the failed set with `fails` exactly: caught, and nothing else cried.
// Which request a defect touches is found through the spec model (the operation a path answers),
// and what it plants uses the spec's names (terminal states, created_resources keys, bounds).

import { matchOperation, operationById } from "@platform-api/spec";
import { fieldOf, isRecord } from "../src/json.js";
import { offsetLists } from "../src/offset.js";
import { bodyValues, queryValues, specModel } from "../src/spec.js";
import { taskFacts } from "../src/tasks.js";
import type { Defect, Exchange } from "./faulty-target.js";

const model = specModel();
const OFFSET_LISTS = offsetLists();
const offsetListIds = OFFSET_LISTS.map((l) => l.operation.operationId);
const offsetListOf = (ex: Exchange) => OFFSET_LISTS.find((l) => l.operation.operationId === operationOf(ex));
const aiPagination = operationById(model, "listAiTasks").pagination;
const volumeTask = model.operations.find((o) => o.operationId === "createVolume")?.asyncTask;
if (!volumeTask) throw new Error("createVolume has no x-async-task in the spec.");
const tasks = taskFacts(volumeTask);
const [FAILED] = tasks.failed;
const BEFORE_TERMINAL = tasks.states.filter((s) => s !== tasks.finished && !tasks.failed.includes(s));

/** The operationId the exchange calls, by the spec's paths. */
const operationOf = (ex: Exchange) => matchOperation(model, ex.method, ex.path)?.operation.operationId;

const isPoll = (ex: Exchange) => operationOf(ex) === tasks.poll.operationId;
const stateOf = (body: unknown) => fieldOf(body, "state");

export const DEFECTS: Defect[] = [
  {
    name: "count equals the page length",
    fails: offsetListIds.map((op) => `pagination.offset.count-is-total.${op}`),
    response: (ex, answer) => {
      const body = answer.body;
      const list = offsetListOf(ex);
      if (!list || answer.status !== 200 || !isRecord(body)) return;
      const items = body[list.pagination.itemsField];
      if (Array.isArray(items)) body[list.pagination.countField] = items.length;
    },
  },
  {
    name: "offset off by one after the first page",
    fails: offsetListIds.map((op) => `pagination.offset.walk-visits-each-once.${op}`),
    request: (ex) => {
      const list = offsetListOf(ex);
      const offset = Number(ex.query.get(list?.offset.name ?? ""));
      if (list && offset > 0) ex.query.set(list.offset.name, String(offset + 1));
      return undefined;
    },
  },
  {
    name: "pages longer than limit",
    fails: offsetListIds.flatMap((op) => [
      `pagination.offset.page-within-limit.${op}`,
      `pagination.offset.walk-visits-each-once.${op}`,
    ]),
    request: (ex) => {
      const list = offsetListOf(ex);
      const limit = Number(ex.query.get(list?.limit.name ?? ""));
      if (list && limit >= 1 && limit < (list.limit.maximum ?? Number.POSITIVE_INFINITY))
        ex.query.set(list.limit.name, String(limit + 1));
      return undefined;
    },
  },
  {
    name: "a task that never finishes",
    fails: ["tasks.poll.reaches-finished"],
    response: (ex, answer) => {
      if (isPoll(ex) && isRecord(answer.body) && stateOf(answer.body) === tasks.finished)
        Object.assign(answer.body, {
          state: BEFORE_TERMINAL.at(-1),
          finished_on: null,
          created_resources: null,
        });
    },
  },
  {
    name: "a task whose state moves backward",
    fails: ["tasks.poll.state-moves-forward"],
    response: backwardStates(),
  },
  {
    name: "FINISHED without the created volume's id",
    fails: ["tasks.finished.created-id"],
    response: (ex, answer) => {
      const created = fieldOf(answer.body, "created_resources");
      if (isPoll(ex) && stateOf(answer.body) === tasks.finished && isRecord(created))
        created[volumeTask.createdResourcesKey ?? ""] = [];
    },
  },
  {
    name: "a quota ERROR that still lists created resources",
    fails: ["tasks.quota.created-resources-null"],
    response: (ex, answer) => {
      if (isPoll(ex) && isRecord(answer.body) && stateOf(answer.body) === FAILED)
        answer.body.created_resources = Object.fromEntries(
          tasks.createdResourcesKeys.map((key) => [
            key,
            key === volumeTask.createdResourcesKey ? ["0b7c3c1e-1d2e-4f5a-8b9c-0d1e2f3a4b5c"] : [],
          ]),
        );
    },
  },
  {
    name: "a quota ERROR that does not say by how much",
    fails: ["tasks.quota.error-names-quota"],
    response: (ex, answer) => {
      if (isPoll(ex) && isRecord(answer.body) && stateOf(answer.body) === FAILED)
        answer.body.error = "Quota exceeded.";
    },
  },
  {
    name: "missing auth accepted",
    fails: ["auth.missing-header"],
    request: (ex, sim) => {
      if (!ex.headers.authorization) ex.headers.authorization = `APIKey ${sim.apiKey}`;
      return undefined;
    },
  },
  {
    name: "an unknown token accepted",
    fails: ["auth.wrong-token"],
    request: (ex, sim) => {
      const token = /^APIKey (\S+)$/.exec(ex.headers.authorization ?? "")?.[1];
      if (token && !sim.tokens.some((t) => t.token === token))
        ex.headers.authorization = `APIKey ${sim.apiKey}`;
      return undefined;
    },
  },
  {
    name: "a lower-case header name refused",
    fails: ["auth.header-name-case-insensitive"],
    request: (ex) =>
      ex.rawHeaders.includes("authorization")
        ? { status: 401, headers: {}, body: { message: "no Authorization header" } }
        : undefined,
  },
  {
    name: "401 instead of 403 for a client token on the reseller API",
    fails: ["auth.reseller.client-token-forbidden"],
    response: (ex, answer) => {
      if (operationOf(ex) === "listQuotaLimitRequests" && answer.status === 403) answer.status = 401;
    },
  },
  {
    name: "no 429 ever",
    fails: ["rate-limit.burst-meets-429"],
    simulator: { rateLimit: 0 },
  },
  {
    name: "an invalid Retry-After",
    fails: ["rate-limit.retry-after-valid"],
    response: (_ex, answer) => {
      if (answer.status === model.conventions.requestRate.exceededStatus)
        answer.headers["retry-after"] = "soon";
    },
  },
  {
    name: "an id typed as a string",
    fails: ["schema.listQuotaLimitRequests"],
    response: (ex, answer) => {
      const list = offsetListOf(ex);
      const results = fieldOf(answer.body, list?.pagination.itemsField ?? "");
      if (
        list?.operation.operationId === "listQuotaLimitRequests" &&
        answer.status === 200 &&
        Array.isArray(results)
      )
        for (const r of results) if (isRecord(r)) r.id = String(r.id);
    },
  },
  {
    name: "a next link that drops the filters",
    fails: ["pagination.page.links-keep-filters"],
    response: (ex, answer) => {
      const body = answer.body;
      if (operationOf(ex) !== "listAiTasks" || answer.status !== 200 || !isRecord(body)) return;
      if (aiPagination?.style !== "page") return;
      const { pageParam, limitParam } = aiPagination;
      for (const key of [aiPagination.nextField, aiPagination.previousField]) {
        const link = body[key];
        if (typeof link !== "string") continue;
        const params = new URLSearchParams(link);
        body[key] = `${pageParam}=${params.get(pageParam)}&${limitParam}=${params.get(limitParam)}`;
      }
    },
  },
  {
    name: "an ignored status filter",
    fails: ["pagination.offset.filters.listQuotaLimitRequests"],
    request: (ex) => {
      if (operationOf(ex) === "listQuotaLimitRequests") ex.query.delete("status");
      return undefined;
    },
  },
  {
    name: "AI tasks by task_id when no ordering is given",
    fails: ["pagination.page.default-order"],
    request: (ex) => {
      const [byField] = queryValues("listAiTasks", "ordering");
      if (operationOf(ex) === "listAiTasks" && !ex.query.has("ordering") && byField)
        ex.query.set("ordering", byField);
      return undefined;
    },
  },
  {
    name: "an unknown region answered with an empty list",
    fails: ["errors.unknown-region-404"],
    response: (ex, answer, sim) => {
      const match = matchOperation(model, ex.method, ex.path);
      const region = Number(match?.params.region_id);
      const list = offsetListOf(ex);
      if (
        list?.operation.operationId === "listInstances" &&
        !sim.store.world.regions.some((r) => r.id === region)
      ) {
        answer.status = 200;
        answer.body = { [list.pagination.countField]: 0, [list.pagination.itemsField]: [] };
      }
    },
  },
  {
    name: "check_limits ignores the server count",
    fails: ["check-limits.requested-grows-with-servers"],
    request: (ex) => {
      if (operationOf(ex) === "checkVirtualGpuClusterLimits" && isRecord(ex.body)) ex.body.servers_count = 1;
      return undefined;
    },
  },
  {
    name: "a protection profile update that is not saved",
    fails: ["protection-profile.update-read-back"],
    request: async (ex, sim) => {
      if (operationOf(ex) !== "updateProtectionProfile") return undefined;
      const current = await fetch(`${sim.url}${ex.path}`, { headers: ex.headers });
      return { status: current.status, headers: {}, body: await current.json() };
    },
  },
  {
    name: "a storage notification event without name accepted",
    fails: ["storage-notifications.name-required"],
    request: (ex) => {
      if (operationOf(ex) === "putStorageNotificationEvent" && isRecord(ex.body) && !ex.body.name)
        ex.body.name = bodyValues("putStorageNotificationEvent", "name")[0];
      return undefined;
    },
  },
];

/** Answers a task's first poll as its last state before the end and its second as its first; then the truth. */
function backwardStates(): Defect["response"] {
  const polls = new Map<string, number>();
  return (ex, answer) => {
    const id = fieldOf(answer.body, "id");
    if (!isPoll(ex) || typeof id !== "string" || !isRecord(answer.body)) return;
    const n = (polls.get(id) ?? 0) + 1;
    polls.set(id, n);
    if (n <= 2)
      Object.assign(answer.body, {
        state: n === 1 ? BEFORE_TERMINAL.at(-1) : BEFORE_TERMINAL[0],
        finished_on: null,
        created_resources: null,
        error: null,
      });
  };
}
