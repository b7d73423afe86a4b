// One defect each, and the scenarios each must fail. The teeth test runs the whole suite against
// every one and compares the failed set with `fails` exactly: caught, and nothing else cried.

import type { Defect } from "./faulty-target.js";

const OFFSET_LISTS = ["listRegions", "listInstances", "listQuotaLimitRequests"];
const isOffsetList = (path: string) =>
  path === "/cloud/v1/regions" ||
  path.startsWith("/cloud/v1/instances/") ||
  path === "/cloud/reseller/v1/limits_request";
const TASK = /^\/cloud\/v1\/tasks\/[^/]+$/;
const AI_TASKS = "/streaming/ai/tasks";

export const DEFECTS: Defect[] = [
  {
    name: "count equals the page length",
    fails: OFFSET_LISTS.map((op) => `pagination.offset.count-is-total.${op}`),
    response: (ex, answer) => {
      if (ex.method === "GET" && isOffsetList(ex.path) && answer.status === 200)
        answer.body.count = answer.body.results.length;
    },
  },
  {
    name: "offset off by one after the first page",
    fails: OFFSET_LISTS.map((op) => `pagination.offset.walk-visits-each-once.${op}`),
    request: (ex) => {
      const offset = Number(ex.query.get("offset"));
      if (isOffsetList(ex.path) && offset > 0) ex.query.set("offset", String(offset + 1));
      return undefined;
    },
  },
  {
    name: "pages longer than limit",
    fails: OFFSET_LISTS.flatMap((op) => [
      `pagination.offset.page-within-limit.${op}`,
      `pagination.offset.walk-visits-each-once.${op}`,
    ]),
    request: (ex) => {
      const limit = Number(ex.query.get("limit"));
      if (isOffsetList(ex.path) && limit >= 1 && limit < 1000) ex.query.set("limit", String(limit + 1));
      return undefined;
    },
  },
  {
    name: "a task that never finishes",
    fails: ["tasks.poll.reaches-finished"],
    response: (ex, answer) => {
      if (TASK.test(ex.path) && answer.body?.state === "FINISHED")
        Object.assign(answer.body, { state: "RUNNING", finished_on: null, created_resources: null });
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
      if (TASK.test(ex.path) && answer.body?.state === "FINISHED") answer.body.created_resources.volumes = [];
    },
  },
  {
    name: "a quota ERROR that still lists created resources",
    fails: ["tasks.quota.created-resources-null"],
    response: (ex, answer) => {
      if (TASK.test(ex.path) && answer.body?.state === "ERROR")
        answer.body.created_resources = {
          instances: [],
          volumes: ["0b7c3c1e-1d2e-4f5a-8b9c-0d1e2f3a4b5c"],
          floatingips: [],
          networks: [],
        };
    },
  },
  {
    name: "a quota ERROR that does not say by how much",
    fails: ["tasks.quota.error-names-quota"],
    response: (ex, answer) => {
      if (TASK.test(ex.path) && answer.body?.state === "ERROR") answer.body.error = "Quota exceeded.";
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
      if (ex.path.startsWith("/cloud/reseller") && answer.status === 403) answer.status = 401;
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
      if (answer.status === 429) answer.headers["retry-after"] = "soon";
    },
  },
  {
    name: "an id typed as a string",
    fails: ["schema.listQuotaLimitRequests"],
    response: (ex, answer) => {
      if (ex.path === "/cloud/reseller/v1/limits_request" && answer.status === 200)
        for (const r of answer.body.results) r.id = String(r.id);
    },
  },
  {
    name: "a next link that drops the filters",
    fails: ["pagination.page.links-keep-filters"],
    response: (ex, answer) => {
      if (ex.path !== AI_TASKS || answer.status !== 200) return;
      for (const key of ["next", "previous"]) {
        const link = answer.body[key];
        if (typeof link !== "string") continue;
        const params = new URLSearchParams(link);
        answer.body[key] = `page=${params.get("page")}&limit=${params.get("limit")}`;
      }
    },
  },
  {
    name: "an ignored status filter",
    fails: ["pagination.offset.filters.listQuotaLimitRequests"],
    request: (ex) => {
      if (ex.path === "/cloud/reseller/v1/limits_request") ex.query.delete("status");
      return undefined;
    },
  },
  {
    name: "AI tasks by task_id when no ordering is given",
    fails: ["pagination.page.default-order"],
    request: (ex) => {
      if (ex.path === AI_TASKS && !ex.query.has("ordering")) ex.query.set("ordering", "task_id");
      return undefined;
    },
  },
  {
    name: "an unknown region answered with an empty list",
    fails: ["errors.unknown-region-404"],
    response: (ex, answer, sim) => {
      const region = Number(ex.path.split("/")[5]);
      if (
        ex.path.startsWith("/cloud/v1/instances/") &&
        !sim.store.world.regions.some((r) => r.id === region)
      ) {
        answer.status = 200;
        answer.body = { count: 0, results: [] };
      }
    },
  },
  {
    name: "check_limits ignores the server count",
    fails: ["check-limits.requested-grows-with-servers"],
    request: (ex) => {
      if (ex.path.endsWith("/check_limits") && ex.body) ex.body.servers_count = 1;
      return undefined;
    },
  },
  {
    name: "a protection profile update that is not saved",
    fails: ["protection-profile.update-read-back"],
    request: async (ex, sim) => {
      if (ex.method !== "PUT" || !ex.path.startsWith("/security/")) return undefined;
      const current = await fetch(`${sim.url}${ex.path}`, { headers: ex.headers });
      return { status: current.status, headers: {}, body: await current.json() };
    },
  },
  {
    name: "a storage notification event without name accepted",
    fails: ["storage-notifications.name-required"],
    request: (ex) => {
      if (ex.path === "/storage/notifications/v1/event" && ex.body && !ex.body.name)
        ex.body.name = "reaching_used_space";
      return undefined;
    },
  },
];

/** Answers a task's first poll RUNNING and its second NEW, whatever it really is; then the truth. */
function backwardStates(): Defect["response"] {
  const polls = new Map<string, number>();
  return (ex, answer) => {
    if (!TASK.test(ex.path) || !answer.body?.id) return;
    const n = (polls.get(answer.body.id) ?? 0) + 1;
    polls.set(answer.body.id, n);
    if (n <= 2)
      Object.assign(answer.body, {
        state: n === 1 ? "RUNNING" : "NEW",
        finished_on: null,
        created_resources: null,
        error: null,
      });
  };
}
