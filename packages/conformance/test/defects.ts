// One defect each, and the one list of results each must fail (`fails`), whoever judges it: the
// teeth test judges a recorded correct run with each answer-side defect applied, in-process, and
// runs the whole suite live against the defects that need a live server (a changed request, a story
// result, the simulator's own settings); both compare the failed set with `fails` exactly.
// Which request a defect touches is found through the spec model (the operation a path answers),
// and what it plants uses the spec's names (terminal states, created_resources keys, bounds).

import {
  type FieldFact,
  matchOperation,
  operationById,
  platformFactsOf,
  type StatusFact,
} from "@platform-api/spec";
import { listFilters, listOrderings } from "../src/facts/list-facts.js";
import { allOffsetLists } from "../src/facts/offset.js";
import { keyFor } from "../src/facts/operations.js";
import { bodyValues, queryValues, specModel, specValidator } from "../src/facts/spec.js";
import { taskFacts } from "../src/facts/tasks.js";
import { plannedResults } from "../src/judge/judge.js";
import { fieldOf, isRecord } from "../src/shared/json.js";
import type { Answer, Defect, Exchange } from "./faulty-target.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const OFFSET_LISTS = allOffsetLists();
const offsetListIds = OFFSET_LISTS.map((l) => l.operation.operationId);
/** The offset lists whose path names no project or region. */
const _unplacedOffsetListIds = OFFSET_LISTS.filter(
  (l) => !l.operation.parameters.some((p) => p.in === "path"),
).map((l) => l.operation.operationId);
const offsetListOf = (ex: Exchange) => OFFSET_LISTS.find((l) => l.operation.operationId === operationOf(ex));
const aiPagination = operationById(model, "listAiTasks").pagination;
const volumeTask = model.operations.find((o) => o.operationId === "createVolume")?.asyncTask;
if (!volumeTask) throw new Error("createVolume has no x-async-task in the spec.");
const tasks = taskFacts(volumeTask);
const [FAILED] = tasks.failed;
const BEFORE_TERMINAL = tasks.states.filter((s) => s !== tasks.finished && !tasks.failed.includes(s));

/** The results the registry gives for a rule, one per operation it applies to. */
function resultsOf(ruleId: string) {
  return plannedResults().filter((r) => r.rule.id === ruleId);
}

/** The operationId the exchange calls, by the spec's paths. */
const operationOf = (ex: Exchange) => matchOperation(model, ex.method, ex.path)?.operation.operationId;

const isPoll = (ex: Exchange) => operationOf(ex) === tasks.poll.operationId;
/**
 * What a defect of a task's polls touches: the polls that answer this state. Those of a task that
 * ends in FINISHED and those of one that ends in ERROR are other answers (other tasks: a volume
 * created, one beyond the quota), so a defect of each may share a live run.
 */
const pollsIn = (state: string | undefined) => `${tasks.poll.operationId} (${state})`;
const stateOf = (body: unknown) => fieldOf(body, "state");

/** One answer at a time this far apart is half the spec's rate (x-rate-limits). */
const SLOW_ANSWER_MS = Math.ceil(
  (2 * 1000 * model.conventions.requestRate.periodSeconds) / model.conventions.requestRate.limit,
);

/** What the auth defects touch: how every operation reads the token (one live run at a time). */
const AUTH = "(authorization)";
/** What a defect touches that changes only a header that is no prefix and token (the stories' own). */
const SCHEME = "(authorization scheme)";
/**
 * What a defect touches that changes only requests whose header is named in lower case: only
 * auth.header-name-case-insensitive sends one, with the account's own token, which the other auth
 * defects (a missing or an unknown token) leave alone.
 */
const HEADER_CASE = "(authorization header name case)";

/** The operations whose answers the registry's 404 check provokes. */
const NOT_FOUND_OPERATIONS = resultsOf("errors.unknown-id-404").map((r) => r.operation.operationId);
const regions = OFFSET_LISTS.find((l) => l.operation.operationId === "listRegions");
if (!regions) throw new Error("listRegions is not an offset list in the spec.");

/** The planted defects, made anew for each run (some count the answers they change). */
export const defects = (): Defect[] => [
  {
    // The deviation the issue names: it used to end the run with exit 2, "pass --project-id".
    name: "a discovery answer that breaks the schema: the default project's id as a string",
    fails: ["discovery.default-project", "schema.listProjects"],
    breaksDiscovery: true,
    response: (ex, answer) => {
      const projects = fieldOf(answer.body, "results");
      if (operationOf(ex) === "listProjects" && answer.status === 200 && Array.isArray(projects))
        for (const p of projects) if (isRecord(p) && p.is_default === true) p.id = String(p.id);
    },
  },
  {
    // Every try of the discovery's first call (the suite retries a 500 three times), then the truth.
    name: "GET /iam/clients/me answers 500 to the discovery",
    liveOnly: "the discovery sends a 500 again: which answers are the discovery's only a live run shows",
    // Its 500s end with the discovery's tries: what the run does next is as on a correct platform.
    touches: ["getCurrentClient"],
    fails: ["discovery.current-client"],
    response: firstAnswers("getCurrentClient", 4, (answer) => {
      answer.status = 500;
      answer.body = { message: "internal error" };
    }),
  },
  {
    name: "a malformed region list to the discovery: its count a string",
    fails: ["discovery.active-region", "schema.listRegions"],
    breaksDiscovery: true,
    response: firstAnswers("listRegions", 1, (answer) => {
      const { countField } = regions.pagination;
      if (isRecord(answer.body)) answer.body[countField] = String(answer.body[countField]);
    }),
  },
  {
    name: "a 404 whose error body has an undocumented content type",
    fails: NOT_FOUND_OPERATIONS.map((op) => `schema.${op}`),
    response: (_ex, answer) => {
      if (answer.status !== 404) return;
      answer.headers["content-type"] = "text/html; charset=utf-8";
      answer.text = "<html><body><h1>404 Not Found</h1></body></html>";
    },
  },
  {
    name: "a page item that breaks the schema in the middle of a walk",
    fails: ["schema.listRegions"],
    response: (ex, answer) => {
      const offset = Number(ex.query.get(regions.offset.name) ?? 0);
      const items = fieldOf(answer.body, regions.pagination.itemsField);
      if (operationOf(ex) !== "listRegions" || offset <= 0 || !Array.isArray(items)) return;
      const item = items[Math.floor(items.length / 2)];
      if (isRecord(item)) item.id = String(item.id);
    },
  },
  {
    name: "a task in ERROR whose reason is empty",
    touches: [pollsIn(FAILED)],
    fails: ["tasks.error.has-reason", "tasks.quota.error-names-quota"],
    response: (ex, answer) => {
      if (isPoll(ex) && isRecord(answer.body) && stateOf(answer.body) === FAILED) answer.body.error = "";
    },
  },
  {
    name: "count equals the page length",
    // And count changes during a walk whose last page is shorter (the default world's regions
    // fill their small pages evenly).
    fails: [
      ...offsetListIds.map((op) => `pagination.offset.count-is-total.${op}`),
      "pagination.offset.count-stable.listInstances",
      "pagination.offset.count-stable.listQuotaLimitRequests",
    ],
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
    touches: offsetListIds,
    // Each later page is one short of what count leaves from its offset, and the walk misses items.
    fails: offsetListIds.flatMap((op) => [
      `pagination.offset.count-is-total.${op}`,
      `pagination.offset.walk-visits-each-once.${op}`,
    ]),
    request: (ex) => {
      const list = offsetListOf(ex);
      const offset = Number(ex.query.get(list?.offset.name ?? ""));
      if (list && offset > 0) ex.query.set(list.offset.name, String(offset + 1));
      return undefined;
    },
  },
  {
    name: "pages longer than limit",
    touches: offsetListIds,
    // The client stops a walk at a page longer than its limit, and the lists whose path needs a
    // region are not reached: the region walk was the one that stopped.
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
    touches: [pollsIn(tasks.finished)],
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
    fails: ["tasks.error.created-resources-null"],
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
    touches: [pollsIn(FAILED)],
    fails: ["tasks.quota.error-names-excess"],
    response: (ex, answer) => {
      // The quota still named, every number gone.
      if (isPoll(ex) && isRecord(answer.body) && stateOf(answer.body) === FAILED)
        answer.body.error = String(answer.body.error).replace(/\d+/g, "");
    },
  },
  {
    name: "missing auth accepted",
    touches: [AUTH],
    accepts: ["auth.missing-header"],
    fails: resultsOf("auth.missing-header").map((r) => r.id),
    request: (ex, sim) => {
      if (!ex.headers.authorization) ex.headers.authorization = `${tokenPrefix}${sim.apiKey}`;
      return undefined;
    },
  },
  {
    name: "an unknown token accepted",
    touches: [AUTH],
    accepts: ["auth.wrong-token"],
    fails: ["auth.wrong-token"],
    request: (ex, sim) => {
      const header = ex.headers.authorization ?? "";
      const token = header.startsWith(tokenPrefix) ? header.slice(tokenPrefix.length) : undefined;
      if (token && !/\s/.test(token) && !sim.tokens.some((t) => t.token === token))
        ex.headers.authorization = `${tokenPrefix}${sim.apiKey}`;
      return undefined;
    },
  },
  {
    // Only the stories send an Authorization header that is no prefix and token: this defect
    // changes no other request, so it may share a live run with an auth defect (its own tag).
    name: `a Bearer token and a bare ${tokenPrefix.trim()} accepted`,
    touches: [SCHEME],
    accepts: ["auth.wrong-scheme", "auth.malformed-header"],
    fails: ["auth.wrong-scheme", "auth.malformed-header"],
    request: (ex, sim) => {
      const header = ex.headers.authorization;
      if (
        header !== undefined &&
        !(header.startsWith(tokenPrefix) && /^\S+$/.test(header.slice(tokenPrefix.length)))
      )
        ex.headers.authorization = `${tokenPrefix}${sim.apiKey}`;
      return undefined;
    },
  },
  {
    name: "a lower-case header name refused",
    touches: [HEADER_CASE],
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
    // The hole: the reseller API lets the client token in and answers with its list. Only
    // the client token is refused there (403) by a correct server, so every 403 of the reseller
    // API becomes the page the reseller would get.
    name: "the reseller API open to client tokens",
    accepts: ["auth.reseller.client-token-forbidden"],
    fails: ["auth.reseller.client-token-forbidden"],
    response: (ex, answer, sim) => {
      const operation = matchOperation(model, ex.method, ex.path)?.operation;
      const list = offsetListOf(ex);
      if (!operation || keyFor(operation) !== "reseller" || answer.status !== 403 || !list) return;
      const requests = sim.store.world.quota_limit_requests;
      const offset = Number(ex.query.get(list.offset.name) ?? list.offset.default ?? 0);
      const limit = Number(ex.query.get(list.limit.name) ?? list.limit.default ?? requests.length);
      answer.status = 200;
      answer.body = {
        [list.pagination.countField]: requests.length,
        [list.pagination.itemsField]: requests.slice(offset, offset + limit),
      };
    },
  },
  {
    name: "no 429 ever",
    accepts: ["rate-limit.burst-meets-429"],
    fails: ["rate-limit.burst-meets-429"],
    simulator: { rateLimit: 0 },
    // Only a burst faster than twice the rate shows it: how fast one goes is the machine's.
    burst: true,
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
    touches: ["listQuotaLimitRequests"],
    fails: ["pagination.offset.filters.listQuotaLimitRequests"],
    request: (ex) => {
      if (operationOf(ex) === "listQuotaLimitRequests") ex.query.delete("status");
      return undefined;
    },
  },
  {
    // A live API's kind of defect: the filter applied to the first page only.
    name: "AI task filters honoured on the first page only",
    touches: ["listAiTasks"],
    // Later pages are the whole list: items off the filter, its count, and links without the filter.
    fails: [
      "pagination.page.count-is-total.listAiTasks",
      "pagination.page.filters.listAiTasks",
      "pagination.page.links-keep-filters",
    ],
    request: (ex) => {
      const operation = matchOperation(model, ex.method, ex.path)?.operation;
      if (operation?.operationId !== "listAiTasks" || Number(ex.query.get("page") ?? 1) <= 1)
        return undefined;
      for (const filter of listFilters(operation)) ex.query.delete(filter.parameter.name);
      return undefined;
    },
  },
  {
    name: "AI task ordering ignored",
    touches: ["listAiTasks"],
    // The pages come in the default order, and their links drop the ordering asked.
    fails: ["pagination.page.links-keep-filters", "pagination.page.ordering-sorts.listAiTasks"],
    request: (ex) => {
      const operation = matchOperation(model, ex.method, ex.path)?.operation;
      if (operation?.operationId !== "listAiTasks") return undefined;
      for (const ordering of listOrderings(operation)) ex.query.delete(ordering.parameter.name);
      return undefined;
    },
  },
  {
    name: "AI tasks by task_id when no ordering is given",
    touches: ["listAiTasks"],
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
    accepts: ["errors.unknown-id-404"],
    fails: ["errors.unknown-id-404.listInstances"],
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
    touches: ["checkVirtualGpuClusterLimits"],
    fails: ["check-limits.requested-grows-with-servers"],
    request: (ex) => {
      if (operationOf(ex) === "checkVirtualGpuClusterLimits" && isRecord(ex.body)) ex.body.servers_count = 1;
      return undefined;
    },
  },
  {
    name: "a protection profile update that is not saved",
    touches: ["updateProtectionProfile"],
    fails: ["protection-profile.update-read-back"],
    request: async (ex, sim) => {
      if (operationOf(ex) !== "updateProtectionProfile") return undefined;
      const current = await fetch(`${sim.url}${ex.path}`, { headers: ex.headers });
      return { status: current.status, headers: {}, body: await current.json() };
    },
  },
  {
    name: "a storage notification event without name accepted",
    accepts: ["storage-notifications.name-required"],
    touches: ["putStorageNotificationEvent"],
    fails: ["storage-notifications.name-required"],
    request: (ex) => {
      if (operationOf(ex) === "putStorageNotificationEvent" && isRecord(ex.body) && !ex.body.name)
        ex.body.name = bodyValues("putStorageNotificationEvent", "name")[0];
      return undefined;
    },
  },
  ...listAnswerDefects(),
];

/** The page list whose exchange this is (the AI task list), by the spec's pagination. */
const pageListOf = (ex: Exchange) => {
  const pagination = matchOperation(model, ex.method, ex.path)?.operation.pagination;
  return pagination?.style === "page" ? pagination : undefined;
};
const AI_TASKS = "listAiTasks";

/** Answer-side defects of the lists' paging, each the planted defect of a list rule (judged in-process). */
const listAnswerDefects = (): Defect[] => [
  {
    name: "a limit or offset out of bounds answered 422, not 400",
    // A status the spec does not document either.
    fails: offsetListIds.flatMap((op) => [`pagination.offset.limit-bounds.${op}`, `schema.${op}`]),
    response: (ex, answer) => {
      if (offsetListOf(ex) && answer.status === 400) answer.status = 422;
    },
  },
  {
    name: "a list asked without a limit answers half a page",
    // The offset-list driver's walk starts without a limit: every count is off, and the walks of the
    // lists that one default page holds (all but the instances) end short.
    fails: [
      ...offsetListIds.flatMap((op) => [
        `pagination.offset.default-limit.${op}`,
        `pagination.offset.count-is-total.${op}`,
      ]),
      "pagination.offset.walk-visits-each-once.listRegions",
      "pagination.offset.walk-visits-each-once.listQuotaLimitRequests",
      `pagination.page.default-limit.${AI_TASKS}`,
    ],
    response: (ex, answer) => {
      const offset = offsetListOf(ex);
      const paging = offset ? { limit: offset.limit.name, items: offset.pagination.itemsField } : undefined;
      const page = pageListOf(ex);
      const { limit, items } = paging ?? { limit: page?.limitParam, items: page?.itemsField };
      if (!limit || !items || answer.status !== 200 || ex.query.has(limit)) return;
      const list = fieldOf(answer.body, items);
      if (isRecord(answer.body) && Array.isArray(list) && list.length > 1)
        answer.body[items] = list.slice(0, Math.floor(list.length / 2));
    },
  },
  {
    name: "an AI task page one item longer than its limit",
    // The repeated first item is out of any ordering asked.
    fails: [`pagination.page.page-within-limit.${AI_TASKS}`, `pagination.page.ordering-sorts.${AI_TASKS}`],
    response: (ex, answer) => {
      const page = pageListOf(ex);
      const items = fieldOf(answer.body, page?.itemsField ?? "");
      if (!page || answer.status !== 200 || !ex.query.has(page.limitParam)) return;
      if (isRecord(answer.body) && Array.isArray(items) && items.length > 0)
        answer.body[page.itemsField] = [...items, items[0]];
    },
  },
  {
    name: "the last AI task page links a next page",
    // The link made keeps no filter of the request.
    fails: [`pagination.page.last-page-next-null.${AI_TASKS}`, "pagination.page.links-keep-filters"],
    response: (ex, answer) => {
      const page = pageListOf(ex);
      if (!page || answer.status !== 200 || !isRecord(answer.body) || answer.body[page.nextField] !== null)
        return;
      const at = Number(ex.query.get(page.pageParam) ?? 1);
      answer.body[page.nextField] =
        `${page.pageParam}=${at + 1}&${page.limitParam}=${ex.query.get(page.limitParam) ?? 1}`;
    },
  },
  {
    name: "an AI task page's previous link names the first page",
    // The link made keeps no filter of the request.
    fails: [`pagination.page.next-previous-neighbours.${AI_TASKS}`, "pagination.page.links-keep-filters"],
    response: (ex, answer) => {
      const page = pageListOf(ex);
      if (!page || answer.status !== 200 || !isRecord(answer.body)) return;
      if (typeof answer.body[page.previousField] === "string")
        answer.body[page.previousField] =
          `${page.pageParam}=1&${page.limitParam}=${ex.query.get(page.limitParam) ?? 1}`;
    },
  },
  {
    // A `should`: the spec infers previous as required (x-inferred-required); judged with --strict.
    name: "AI task pages without their previous link",
    fails: [`schema.inferred.${AI_TASKS}`],
    response: (ex, answer) => {
      const page = pageListOf(ex);
      if (page && isRecord(answer.body)) delete answer.body[page.previousField];
    },
  },
];

/** Every name a schema of the spec requires only by inference (x-inferred-required). */
const INFERRED_NAMES = new Set(Object.values(model.inferredRequired).flat());

/** Deletes, in every object of a JSON value, the members that are null and only inferred as required. */
function omitInferredNulls(value: unknown): void {
  if (Array.isArray(value)) for (const item of value) omitInferredNulls(item);
  else if (isRecord(value))
    for (const [key, member] of Object.entries(value)) {
      if (member === null && INFERRED_NAMES.has(key)) delete value[key];
      else omitInferredNulls(member);
    }
}

const EXTRA = "conformance_variant_extra";

/** The size bound of the variant that refuses larger volumes (GiB; the spec gives none). */
const SIZE_BOUND = 65_536;

/** Adds a member the spec does not list to every object of a JSON value. */
function addExtra(value: unknown): void {
  if (Array.isArray(value)) for (const item of value) addExtra(item);
  else if (isRecord(value)) {
    for (const member of Object.values(value)) addExtra(member);
    value[EXTRA] = "a field the spec does not list";
  }
}

/** The object at a JSON pointer's instance path ("/results/0/requested_limits"). */
/** A value of a field fact's documented type (its first enum value, if it has any). */
function sampleOf(fact: FieldFact): unknown {
  const schema = fact.schema as { type?: unknown; enum?: unknown[]; format?: string };
  if (schema.enum?.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (type === "integer" || type === "number") return 1;
  if (type === "boolean") return false;
  if (type === "array") return [];
  if (type === "object") return {};
  return schema.format === "date-time" ? "2026-11-01T00:00:00Z" : "platform";
}

/** Sets a field (`a.b`, `results[].c`: each item of results) where the answer does not have it already. */
function addField(value: unknown, path: string[], sample: unknown): void {
  const [head, ...rest] = path;
  if (head === undefined || !isRecord(value)) return;
  const name = head.endsWith("[]") ? head.slice(0, -2) : head;
  if (head.endsWith("[]")) {
    const items = value[name];
    if (Array.isArray(items)) for (const item of items) addField(item, rest, sample);
    return;
  }
  if (rest.length === 0) {
    if (!(name in value)) value[name] = sample;
    return;
  }
  if (!(name in value) || value[name] === null) value[name] = {};
  addField(value[name], rest, sample);
}

function at(value: unknown, instancePath: string): unknown {
  return instancePath
    .split("/")
    .slice(1)
    .reduce<unknown>((node, key) => (Array.isArray(node) ? node[Number(key)] : fieldOf(node, key)), value);
}

/**
 * Correct variants: servers that do what the platform's own descriptions allow. Each must pass
 * (exit 0), at most warning on the results it lists.
 */
export const correctVariants = (): Defect[] => [
  {
    // The platform's published descriptions make these optional (default null); the spec infers
    // them required, so leaving them out is a `should` warning, never a failure.
    name: "a server that omits the inferred-required fields when they are null",
    fails: [],
    warns: model.operations.map((o) => `schema.inferred.${o.operationId}`),
    response: (_ex, answer) => omitInferredNulls(answer.body),
  },
  {
    // Open schemas (and x-unspecified "other fields") allow more members; only where a schema is
    // closed (additionalProperties: false) does the variant leave it as the spec has it.
    name: "a server that adds fields the spec does not list, everywhere the spec leaves open",
    fails: [],
    response: (ex, answer) => {
      if (answer.body === undefined) return;
      addExtra(answer.body);
      const path = matchOperation(model, ex.method, ex.path)?.operation.path;
      if (!path) return;
      const validate = () =>
        specValidator("required").validateResponse({
          method: ex.method,
          path,
          status: answer.status,
          contentType: "application/json",
          body: answer.body,
        });
      for (const error of validate()) {
        const [instancePath] = error.split(" ");
        // A closed object, or one whose key names the merged spec lists (propertyNames).
        const closed = error.includes("additional properties") || error.includes("property name");
        if (!closed || instancePath === undefined) continue;
        const node = at(answer.body, instancePath === "/" ? "" : instancePath);
        if (isRecord(node)) delete node[EXTRA];
      }
    },
  },
  {
    // What the platform's published descriptions add where the seed is silent (issue #29):
    // spec/platform-facts.yaml's response fields (a task's user_id, an AI task's processing_time,
    // a region's country, slug, created_at, has_ai, …), each with a value of its documented type.
    name: "a server that adds the response fields the platform documents beyond the seed",
    fails: [],
    response: (ex, answer) => {
      const operation = matchOperation(model, ex.method, ex.path)?.operation;
      if (!operation) return;
      for (const fact of platformFactsOf(operation.operationId))
        if (
          fact.kind === "field" &&
          fact.at === "response" &&
          fact.seed === "silent" &&
          fact.status === String(answer.status)
        )
          addField(answer.body, fact.field.split("."), sampleOf(fact));
    },
  },
  {
    // The platform answers the AI task list 422 where the feature is not enabled for the account,
    // a status the seed leaves open and the platform documents (spec/platform-facts.yaml).
    name: "a platform whose AI task list is not enabled for the account (422, as it documents)",
    fails: [],
    response: (ex, answer) => {
      const operation = matchOperation(model, ex.method, ex.path)?.operation;
      if (operation?.operationId !== "listAiTasks" || answer.status !== 200) return;
      const notEnabled = platformFactsOf("listAiTasks").find(
        (f): f is StatusFact => f.kind === "status" && f.status === "422",
      );
      if (!notEnabled) throw new Error("spec/platform-facts.yaml documents no 422 for listAiTasks");
      answer.status = Number(notEnabled.status);
      answer.body = { error: "the feature is not enabled for this account" };
    },
  },
  {
    // The seed gives the AI task list's count a default of 0: a page may leave it out.
    name: "a server that leaves out the page lists' count (the seed's default)",
    fails: [],
    response: (ex, answer) => {
      const pagination = matchOperation(model, ex.method, ex.path)?.operation.pagination;
      if (pagination?.style === "page" && isRecord(answer.body)) delete answer.body[pagination.countField];
    },
  },
  {
    // The spec leaves a volume's size bounds unspecified: a server may refuse a size beyond its own
    // with 400. Run without --gpu-flavor, so the quota path sends a volume beyond any quota.
    name: "a server that refuses a volume beyond its size bound with 400",
    fails: [],
    flags: { gpuFlavor: false },
    request: (ex) => {
      const size = fieldOf(ex.body, "size");
      if (operationOf(ex) !== "createVolume" || typeof size !== "number" || size <= SIZE_BOUND)
        return undefined;
      return {
        status: 400,
        headers: {},
        body: { message: `size must be at most ${SIZE_BOUND} GiB (got ${size})` },
      };
    },
  },
  {
    // A server may be slower than the platform's rate: then no limiter is ever due to act, and a
    // burst that never meets a 429 proves nothing. The same as a loaded machine or a long link.
    name: "a server too slow for the burst to exceed the rate: one GET /iam/clients/me at a time",
    fails: [],
    request: oneAtATime("getCurrentClient", SLOW_ANSWER_MS),
    skips: { "rate-limit.burst-meets-429": /within one period.*never exceeded.*nothing proves/ },
  },
  {
    name: `a server that sends no Retry-After with its ${model.conventions.requestRate.exceededStatus}s`,
    fails: [],
    response: (_ex, answer) => {
      for (const name of Object.keys(answer.headers))
        if (name.toLowerCase() === "retry-after") delete answer.headers[name];
    },
  },
];

/**
 * Lets one request of the operation through at a time, each `ms` after the one before: at most
 * 1000 / ms a second, whatever the client sends at once.
 */
function oneAtATime(operationId: string, ms: number): Defect["request"] {
  let queue = Promise.resolve();
  return async (ex) => {
    if (operationOf(ex) !== operationId) return undefined;
    const turn = queue.then(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    queue = turn;
    await turn;
    return undefined;
  };
}

/** Changes the first `count` answers of an operation (those of the discovery), then none. */
function firstAnswers(
  operationId: string,
  count: number,
  change: (answer: Answer) => void,
): Defect["response"] {
  let seen = 0;
  return (ex, answer) => {
    if (operationOf(ex) === operationId && seen++ < count) change(answer);
  };
}

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
