// Every query parameter of every operation of the merged spec, walked from the spec model (not a
// hand list): each is sent with a valid value — an enum member, or a value taken from the data so a
// filter matches something — and the answer either refuses it (400 naming it as not simulated) or
// obeys it: a filter keeps only matching items and leaves one out where the world allows, an
// ordering sorts, paging pages, a flag does what it says. In-process (Fastify inject), every answer
// validated against the spec.

import {
  createSpecValidator,
  loadBundle,
  loadModel,
  type OperationModel,
  type ParameterModel,
} from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUERY_RULES } from "../src/handlers/query-rules.js";
import { createSimulator, DEFAULT_CLIENT_ID, type Simulator } from "../src/index.js";
import { compareValues, itemSchemaOf } from "../src/query.js";
import { tokenPrefix } from "./harness.js";
import { changedSpec, nodeAt } from "./spec-copy.js";
import { worldPathValues } from "./world-path-values.js";

const doc = loadBundle();
const model = loadModel();
const validator = createSpecValidator(doc, model);

type Item = Record<string, unknown>;
type Value = string | number | boolean;
interface Answer {
  status: number;
  body: { results?: Item[]; count?: number; message?: string } & Item;
}

let sim: Simulator;

function urlOf(operation: OperationModel, query: [string, Value][] = []): string {
  // Where each operation is called: the default world's records the fixture registry names.
  const values = worldPathValues(sim.store.world, operation, DEFAULT_CLIENT_ID);
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${operation.key}`);
    return String(value);
  });
  const search = new URLSearchParams(query.map(([k, v]) => [k, String(v)]));
  return search.size > 0 ? `${path}?${search}` : path;
}

/** Bodies of the writes that take query parameters. */
const BODIES: Record<string, unknown> = { putStorageNotificationEvent: { name: "reaching_used_space" } };

async function call(operation: OperationModel, query: [string, Value][] = []): Promise<Answer> {
  const reseller = operation.security.includes("ResellerAPIKey");
  const body = BODIES[operation.operationId];
  const answer = await sim.app.inject({
    method: operation.method.toUpperCase() as "GET",
    url: urlOf(operation, query),
    headers: {
      authorization: `${tokenPrefix}${reseller ? sim.resellerApiKey : sim.apiKey}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  const parsed = answer.body === "" ? {} : answer.json();
  const problems = validator.validateResponse({
    method: operation.method,
    path: operation.path,
    status: answer.statusCode,
    contentType: String(answer.headers["content-type"] ?? ""),
    body: answer.body === "" ? undefined : parsed,
    hasBody: answer.body !== "",
  });
  expect(problems, `${operation.key} ${JSON.stringify(query)} answered off-spec`).toEqual([]);
  return { status: answer.statusCode, body: parsed };
}

const queryOf = (operation: OperationModel) => operation.parameters.filter((p) => p.in === "query");
const limitParam = (operation: OperationModel) =>
  operation.pagination?.limitParam ?? queryOf(operation).find((p) => p.name === "limit")?.name;

const counts = new Map<string, number>();
/**
 * A page that holds the whole list, as query pairs (none when the operation has no limit): the
 * spec's maximum for its limit, or where it states none (listAiTasks), the count a first page
 * reports.
 */
async function largestPage(operation: OperationModel): Promise<[string, Value][]> {
  const limit = limitParam(operation);
  if (!limit) return [];
  const maximum = queryOf(operation).find((p) => p.name === limit)?.maximum;
  if (maximum !== undefined) return [[limit, maximum]];
  const countField = operation.pagination?.countField;
  let count = counts.get(operation.key);
  if (count === undefined) {
    const first = (await call(operation)).body as Item;
    count = countField === undefined ? undefined : (first[countField] as number | undefined);
    if (typeof count !== "number")
      throw new Error(`${operation.key}: no maximum for ${limit}, and no count on its first page`);
    counts.set(operation.key, count);
  }
  return [[limit, Math.max(count, 1)]];
}

/** The whole list (or its largest page), to take values from and compare with. */
async function everything(operation: OperationModel): Promise<Item[]> {
  const answer = await call(operation, await largestPage(operation));
  expect(answer.status).toBe(200);
  return answer.body.results ?? [];
}

/** Whether the field is one of the listed item's (the spec's item schema, or the items themselves). */
function itemFields(operation: OperationModel, items: Item[]): Set<string> {
  const schema = itemSchemaOf(doc, operation) as { properties?: object } | undefined;
  return new Set([...Object.keys(schema?.properties ?? {}), ...items.flatMap((i) => Object.keys(i))]);
}

/** A value of the field that some items have and, where the world allows, some do not. */
function telling(items: Item[], field: string): Value | undefined {
  const counts = new Map<string, { value: Value; n: number }>();
  for (const item of items) {
    const value = item[field];
    if (value === null || value === undefined || typeof value === "object") continue;
    const key = JSON.stringify(value);
    counts.set(key, { value: value as Value, n: (counts.get(key)?.n ?? 0) + 1 });
  }
  const sorted = [...counts.values()].sort((a, b) => a.n - b.n);
  return (sorted.find((c) => c.n < items.length) ?? sorted[0])?.value;
}

const sortedBy = (items: Item[], key: (i: Item) => unknown, direction: "asc" | "desc") =>
  items.every((item, i) => {
    if (i === 0) return true;
    const order = compareValues(key(items[i - 1] as Item), key(item));
    return direction === "asc" ? order <= 0 : order >= 0;
  });

const instant = (text: unknown) =>
  Date.parse(/(Z|[+-]\d\d:?\d\d)$/.test(String(text)) ? String(text) : `${text}Z`);
const startedAt = (t: Item) => String((t.processing_time as { started_at?: string } | undefined)?.started_at);

/** What the spec alone cannot tell the test a parameter means: sends it and checks the answer. */
type Check = (operation: OperationModel, all: Item[]) => Promise<void>;

const middle = <T>(list: T[]): T => list[Math.floor(list.length / 2)] as T;

const EXPECTATIONS: Record<string, Record<string, Check>> = {
  listTasks: {
    order_by: async (op) => {
      for (const direction of ["asc", "desc"] as const) {
        const { results = [] } = (await call(op, [["order_by", direction], ...(await largestPage(op))])).body;
        expect(sortedBy(results, (t) => instant(t.created_on), direction)).toBe(true);
      }
    },
    sorting: async (op) => {
      const alone = (await call(op, [["sorting", "asc"], ...(await largestPage(op))])).body.results ?? [];
      expect(sortedBy(alone, (t) => instant(t.created_on), "asc")).toBe(true);
      // order_by, the newer name, wins when both are sent.
      const both = (await call(op, [["sorting", "asc"], ["order_by", "desc"], ...(await largestPage(op))]))
        .body.results;
      expect(sortedBy(both ?? [], (t) => instant(t.created_on), "desc")).toBe(true);
    },
    from_timestamp: async (op, all) => {
      const from = String(middle(all).created_on);
      const { results = [] } = (await call(op, [["from_timestamp", `${from}Z`], ...(await largestPage(op))]))
        .body;
      expect(results.every((t) => instant(t.created_on) >= instant(from))).toBe(true);
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThan(all.length);
    },
    to_timestamp: async (op, all) => {
      const to = String(middle(all).created_on);
      const { results = [] } = (await call(op, [["to_timestamp", `${to}Z`], ...(await largestPage(op))]))
        .body;
      expect(results.every((t) => instant(t.created_on) <= instant(to))).toBe(true);
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThan(all.length);
    },
    is_acknowledged: async (op, all) => {
      // The simulator's tasks are never acknowledged: no operation of the spec acknowledges one.
      expect((await call(op, [["is_acknowledged", true]])).body.results).toEqual([]);
      expect((await call(op, [["is_acknowledged", false], ...(await largestPage(op))])).body.count).toBe(
        all.length,
      );
    },
  },
  listProjects: {
    offset: async (op, all) => {
      expect(all.length).toBeGreaterThan(1);
      expect((await call(op, [["offset", 1]])).body.results).toEqual(all.slice(1));
    },
    include_deleted: async (op, all) => {
      // The world deletes no project: false (the default) and true list the same, none deleted.
      const kept = (await call(op, [["include_deleted", false]])).body.results ?? [];
      expect(kept.every((p) => p.deleted_at == null)).toBe(true);
      expect((await call(op, [["include_deleted", true]])).body.results).toHaveLength(all.length);
    },
  },
  listInstances: {
    uuid: async (op, all) => {
      const id = String(middle(all).id);
      expect((await call(op, [["uuid", id]])).body.results?.map((i) => i.id)).toEqual([id]);
    },
    flavor_id: (op, all) =>
      byInstance(op, all, "flavor_id", flavorOf(middle(all)), (i, v) => flavorOf(i) === v),
    flavor_prefix: (op, all) =>
      byInstance(op, all, "flavor_prefix", flavorOf(middle(all)), (i, v) => flavorOf(i).startsWith(v)),
    exclude_flavor_prefix: (op, all) =>
      byInstance(
        op,
        all,
        "exclude_flavor_prefix",
        flavorOf(middle(all)),
        (i, v) => !flavorOf(i).startsWith(v),
      ),
    exclude_secgroup: (op, all) =>
      byInstance(
        op,
        all,
        "exclude_secgroup",
        "web",
        (i, v) => !JSON.stringify(i.security_groups).includes(`"${v}"`),
      ),
    ip: (op, all) => {
      const addr = String(
        Object.values(middle(all).addresses as Record<string, { addr: string }[]>)[0]?.[0]?.addr,
      );
      return byInstance(op, all, "ip", addr, (i) => JSON.stringify(i.addresses).includes(addr));
    },
    tag_value: async (op) => {
      // The world's instances carry no tags: a tag value selects none.
      expect((await call(op, [["tag_value", "prod"]])).body.results).toEqual([]);
    },
    only_isolated: async (op) => {
      const isolated = (await call(op, [["only_isolated", true]])).body.results ?? [];
      expect(isolated.every((i) => i.instance_isolation != null)).toBe(true);
      expect((await call(op, [["only_isolated", false]])).body.count).toBe((await call(op)).body.count);
    },
    include_ai: (op) => sameEitherWay(op, "include_ai"),
    include_baremetal: (op) => sameEitherWay(op, "include_baremetal"),
    include_k8s: (op) => sameEitherWay(op, "include_k8s"),
    with_ddos: async (op) => {
      const { results = [] } = (await call(op, [["with_ddos", true]])).body;
      expect(results.every((i) => "ddos_profile" in i)).toBe(true);
    },
    order_by: async (op) => {
      for (const value of (queryOf(op).find((p) => p.name === "order_by")?.enum ?? []).map(String)) {
        const [key, direction] = value.split(".") as [string, "asc" | "desc"];
        const { results = [] } = (await call(op, [["order_by", value], ...(await largestPage(op))])).body;
        expect(results.length).toBeGreaterThan(1);
        expect(
          sortedBy(results, (i) => i[key === "created" ? "created_at" : key], direction),
          value,
        ).toBe(true);
      }
    },
  },
  listRegions: {
    show_volume_types: async (op) => {
      const { results = [] } = (await call(op, [["show_volume_types", true]])).body;
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => Array.isArray(r.available_volume_types))).toBe(true);
    },
  },
  listAiTasks: {
    date_created: async (op, all) => {
      const since = startedAt(middle(all));
      const { results = [], count = 0 } = (
        await call(op, [["date_created", since], ...(await largestPage(op))])
      ).body;
      expect(results.every((t) => Date.parse(startedAt(t)) >= Date.parse(since))).toBe(true);
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThan(all.length);
    },
    search: async (op, all) => {
      const needle = String((middle(all).task_data as { url: string }).url.split("/").pop()).toUpperCase();
      const { results = [] } = (await call(op, [["search", needle], ...(await largestPage(op))])).body;
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThan(all.length);
      expect(results.every((t) => JSON.stringify(t).toUpperCase().includes(needle))).toBe(true);
    },
    ordering: async (op) => {
      const keys = (queryOf(op).find((p) => p.name === "ordering")?.enum ?? []).map(String);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const { results = [] } = (await call(op, [["ordering", key], ...(await largestPage(op))])).body;
        const of = (t: Item) => (key in t ? t[key] : startedAt(t));
        expect(sortedBy(results, of, "asc"), `ordering=${key}`).toBe(true);
      }
    },
  },
  putStorageNotificationEvent: {
    client_id: async (op) => {
      expect((await call(op, [["client_id", DEFAULT_CLIENT_ID]])).status).toBeLessThan(300);
      expect((await call(op, [["client_id", DEFAULT_CLIENT_ID + 1]])).status).toBe(403);
    },
  },
};

const flavorOf = (instance: Item) => String((instance.flavor as { flavor_id?: string }).flavor_id);

/** A filter of the instance list the test reads by `keeps`: only such items, some left out. */
async function byInstance(
  op: OperationModel,
  all: Item[],
  name: string,
  value: string,
  keeps: (item: Item, value: string) => boolean,
): Promise<void> {
  const { results = [] } = (await call(op, [[name, value], ...(await largestPage(op))])).body;
  expect(results.length).toBeGreaterThan(0);
  expect(results.every((i) => keeps(i, value))).toBe(true);
  expect(results.length).toBeLessThan(all.length);
}

/** A flag that selects the same either way, as its rule says (the world has none of the kind). */
async function sameEitherWay(op: OperationModel, name: string): Promise<void> {
  const total = (await call(op)).body.count;
  for (const value of [true, false])
    expect((await call(op, [[name, value]])).body.count, `${name}=${value}`).toBe(total);
}

/** Paging: limit 1 gives one item of the same total, the next offset or page the next item. */
async function checkPaging(op: OperationModel, parameter: ParameterModel, all: Item[]): Promise<void> {
  const limit = limitParam(op) as string;
  const first = await call(op, [[limit, 1]]);
  expect(first.body.results?.length).toBeLessThanOrEqual(1);
  if (parameter.name === limit) {
    expect(first.body.count ?? all.length).toBeGreaterThanOrEqual(all.length);
    return;
  }
  const next = parameter.name === "page" ? 2 : 1;
  const second = await call(op, [
    [limit, 1],
    [parameter.name, next],
  ]);
  expect(second.status).toBe(200);
  if (all.length > 1) expect(second.body.results).toEqual([all[1]]);
}

async function checkFilter(op: OperationModel, parameter: ParameterModel, all: Item[]): Promise<void> {
  const value = telling(all, parameter.name);
  expect(value, `the world has no value of ${parameter.name} to filter ${op.operationId} by`).toBeDefined();
  const sent: [string, Value][] = [[parameter.name, value as Value], ...(await largestPage(op))];
  const { status, body } = await call(op, sent);
  expect(status).toBe(200);
  const results = body.results ?? [];
  expect(results.length).toBeGreaterThan(0);
  expect(results.every((item) => item[parameter.name] === value)).toBe(true);
  if (all.some((item) => item[parameter.name] !== value)) expect(results.length).toBeLessThan(all.length);
  // A parameter the platform repeats takes any of several values.
  const others = [...new Set(all.map((i) => i[parameter.name]))].filter((v) => v !== value);
  if ((parameter.type === "array" || parameter.repeatable) && others.length > 0) {
    const two = [value, others[0]] as Value[];
    const either =
      (await call(op, [...two.map((v): [string, Value] => [parameter.name, v]), ...(await largestPage(op))]))
        .body.results ?? [];
    expect(either.every((item) => two.includes(item[parameter.name] as Value))).toBe(true);
    expect(either.length).toBeGreaterThan(results.length);
  }
}

async function checkOrder(op: OperationModel, parameter: ParameterModel): Promise<void> {
  for (const value of (parameter.enum ?? []).map(String)) {
    const [, field = "", direction] = /^(.+)\.(asc|desc)$/.exec(value) ?? [];
    const sent: [string, Value][] = [[parameter.name, value], ...(await largestPage(op))];
    const { results = [] } = (await call(op, sent)).body;
    expect(results.length).toBeGreaterThan(1);
    expect(
      sortedBy(results, (i) => i[field], direction as "asc" | "desc"),
      `${parameter.name}=${value}`,
    ).toBe(true);
  }
}

const walked = model.operations.flatMap((op) => queryOf(op).map((p) => [op, p] as const));

beforeAll(async () => {
  sim = await createSimulator({ env: {}, timeScale: 0.001, rateLimit: 0 });
  // Tasks in a second project and region, so that the task list's selections have something to leave out.
  const created = await sim.app.inject({
    method: "POST",
    url: "/cloud/v1/volumes/2/112",
    headers: { authorization: `${tokenPrefix}${sim.apiKey}`, "content-type": "application/json" },
    payload: { name: "walk", source: "new-volume", size: 1 },
  });
  expect(created.statusCode).toBe(200);
  sim.advance(1);
});
afterAll(() => sim.close());

describe("every documented query parameter is honoured or refused", () => {
  it("walks parameters of the merged spec", () => {
    expect(walked.length).toBeGreaterThan(20);
  });

  it.each(walked.map(([op, p]) => [`${op.operationId} ?${p.name}`, op, p] as const))(
    "%s",
    async (_, op, parameter) => {
      const rule = QUERY_RULES.rules[op.operationId]?.[parameter.name];
      if (rule?.kind === "refuse") {
        // A value the parameter's schema takes, so the refusal is the rule's and not the schema's.
        const value =
          parameter.enum?.[0] ??
          (parameter.type === "boolean"
            ? true
            : parameter.format === "date-time"
              ? "2026-01-01T00:00:00Z"
              : parameter.type === "integer"
                ? 1
                : "x");
        const answer = await call(op, [[parameter.name, value as Value]]);
        expect(answer.status).toBe(400);
        expect(answer.body.message).toContain(
          `"${parameter.name}" is documented by the platform but not simulated`,
        );
        return;
      }
      const all = op.method === "get" ? await everything(op) : [];
      const expectation = EXPECTATIONS[op.operationId]?.[parameter.name];
      if (expectation) return expectation(op, all);
      const paging = op.pagination
        ? [
            op.pagination.limitParam,
            op.pagination.style === "offset" ? op.pagination.offsetParam : op.pagination.pageParam,
          ]
        : ["limit", "offset"];
      if (paging.includes(parameter.name)) return checkPaging(op, parameter, all);
      if (parameter.name === "order_by") return checkOrder(op, parameter);
      if (itemFields(op, all).has(parameter.name)) return checkFilter(op, parameter, all);
      throw new Error(
        `${op.operationId} ?${parameter.name}: neither refused nor checked here; say what it does in EXPECTATIONS.`,
      );
    },
  );
});

describe("a documented query parameter without a rule", () => {
  const withParameter = (operationId: string, name: string) =>
    changedSpec((doc) => {
      const operation = model.operations.find((o) => o.operationId === operationId) as OperationModel;
      const node = nodeAt(doc, operation.pointer);
      node.parameters = [
        ...((node.parameters as unknown[]) ?? []),
        { name, in: "query", schema: { type: "string" } },
      ];
    });

  it("stops the start, naming it", async () => {
    await expect(
      createSimulator({ env: {}, spec: withParameter("listInstances", "hypervisor") }),
    ).rejects.toThrow(/listInstances: the query parameters hypervisor have no rule/);
  });

  it("is a filter without a line of code when the listed item has a field of its name", async () => {
    const spec = withParameter("listRegions", "country");
    const own = await createSimulator({ env: {}, spec });
    try {
      const answer = await own.app.inject({
        url: "/cloud/v1/regions?country=US",
        headers: { authorization: `${tokenPrefix}${own.apiKey}` },
      });
      const results = answer.json<{ results: Item[] }>().results;
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.country === "US")).toBe(true);
    } finally {
      await own.close();
    }
  });
});
