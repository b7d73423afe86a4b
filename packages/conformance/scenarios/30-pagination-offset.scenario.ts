// Offset pagination on every offset list the spec names (x-pagination): `count` is the total of all
// pages, no page is longer than `limit`, walking by `limit` until offset >= count visits every item
// once, `limit` outside its bounds and a negative `offset` are refused (400) or clamped, and
// filters filter. Bounds, defaults and field names are the spec's.

import type { components } from "@platform-api/spec/generated/openapi";
import type { Request } from "../src/api.js";
import type { Http } from "../src/http.js";
import { isRecord } from "../src/json.js";
import { expectStatus, identity, walkOffset } from "../src/lists.js";
import { largestPage, type OffsetList, offsetLists, pageQuery, readOffsetPage } from "../src/offset.js";
import { callOf, keyFor, runPathValues } from "../src/operations.js";
import { check, type Need, type ScenarioApi, scenario } from "../src/scenario.js";
import { queryValues } from "../src/spec.js";

/** A page size that needs a few pages, never more than 8, never above the spec's maximum. */
const walkLimit = (list: OffsetList, count: number) =>
  Math.min(list.limit.maximum ?? Number.POSITIVE_INFINITY, Math.max(1, Math.ceil(count / 4)));

/** One page of a list, its count and items read by the spec's field names; a deviation otherwise. */
async function page(http: Http, list: OffsetList, request: Request, query: Request["query"]) {
  const answer = await http.send({ ...request, query });
  expectStatus(answer, 200);
  const { countField, itemsField } = list.pagination;
  const read = readOffsetPage(list, answer.body, 0);
  check(read, `${answer.url}: no integer ${countField} and ${itemsField} array`);
  return { answer, count: read.count, items: read.items };
}

for (const list of offsetLists()) {
  const { operationId } = list.operation;
  const { limit, offset } = list;
  const { countField, itemsField } = list.pagination;
  const id = (check: string) => `pagination.offset.${check}.${operationId}`;
  const needs: Need[] = keyFor(list.operation) === "reseller" ? ["reseller"] : [];
  const largest = largestPage(list);
  const q = (values: Record<string, number | undefined>) =>
    Object.entries(values)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${v}`)
      .join("&");

  /** The request of the list, or a skip when the run has no value for one of its path parameters. */
  const requestOf = (api: ScenarioApi): Request => {
    const call = callOf(list.operation, runPathValues(api.run));
    if ("request" in call) return call.request;
    return api.skip(`the suite has no value for ${call.missing.join(", ")} of ${operationId}'s path`);
  };

  scenario(
    {
      id: id("count-is-total"),
      title: `${operationId}: ${countField} is the total of all pages, whatever the ${limit.name}`,
      severity: "must",
      operation: operationId,
      needs: [...needs, "state"],
      calls: [`GET ?${q(pageQuery(list, largest, 0))}`, `GET ?${q(pageQuery(list, 1, 0))}`],
    },
    async (api) => {
      const { http } = api;
      const request = requestOf(api);
      if (largest === undefined) return api.skip(`the spec gives ${limit.name} no maximum or default`);
      const big = await page(http, list, request, pageQuery(list, largest, 0));
      const one = await page(http, list, request, pageQuery(list, 1, 0));
      const total = big.count;
      check(total >= 0, `${countField} ${total} is not an integer >= 0`);
      check(
        one.count === total,
        `${countField} is ${total} with ${limit.name}=${largest} but ${one.count} with ${limit.name}=1`,
      );
      const expected = Math.min(total, largest);
      check(
        big.items.length === expected,
        `with ${limit.name}=${largest} the first page holds ${big.items.length} items but ${countField} says ${total} in all (expected ${expected} on the page)`,
      );
    },
  );

  scenario(
    {
      id: id("count-stable"),
      title: `${operationId}: ${countField} stays the same on every page`,
      severity: "must",
      operation: operationId,
      needs: [...needs, "state"],
      calls: [`GET ?${limit.name}=⌈${countField}/4⌉&${offset.name}=0,…`],
    },
    async (api) => {
      const request = requestOf(api);
      const first = await page(api.http, list, request, { [limit.name]: 1 });
      const { pages } = await walkOffset(api.http, list, request, walkLimit(list, first.count), 8);
      const counts = [...new Set(pages.map((p) => p.count))];
      check(
        counts.length === 1,
        `${countField} changed between pages: ${pages.map((p) => `${offset.name} ${p.offset}: ${p.count}`).join(", ")}`,
      );
    },
  );

  scenario(
    {
      id: id("page-within-limit"),
      title: `${operationId}: no page is longer than ${limit.name}`,
      severity: "must",
      operation: operationId,
      needs: [...needs, "state"],
      calls: [
        `GET ?${q(pageQuery(list, 1, 0))}`,
        `GET ?${q(pageQuery(list, 2, 0))}`,
        `GET ?${q(pageQuery(list, 7, 1))}`,
      ],
    },
    async (api) => {
      const request = requestOf(api);
      for (const [size, from] of [
        [1, 0],
        [2, 0],
        [7, 1],
      ] as const) {
        const got = await page(api.http, list, request, pageQuery(list, size, from));
        check(
          got.items.length <= size,
          `${got.answer.url} returned ${got.items.length} items, more than ${limit.name}=${size}`,
        );
      }
    },
  );

  scenario(
    {
      id: id("walk-visits-each-once"),
      title: `${operationId}: walking by ${limit.name} until ${offset.name} >= ${countField} visits every item exactly once`,
      severity: "must",
      operation: operationId,
      needs: [...needs, "state"],
      calls: [
        `GET ?${limit.name}=1`,
        `GET ?${limit.name}=⌈${countField}/4⌉&${offset.name}=0, ⌈${countField}/4⌉, …`,
      ],
    },
    async (api) => {
      const request = requestOf(api);
      const first = await page(api.http, list, request, { [limit.name]: 1 });
      const count = first.count;
      const size = walkLimit(list, count);
      const { items, complete } = await walkOffset(api.http, list, request, size, 8);
      check(
        complete,
        `the walk with ${limit.name}=${size} did not reach ${offset.name} >= ${countField} (${count}) in 8 pages`,
      );
      const seen = new Map<string, number>();
      for (const item of items) seen.set(identity(item), (seen.get(identity(item)) ?? 0) + 1);
      const repeated = [...seen].filter(([, n]) => n > 1).map(([key]) => key);
      check(repeated.length === 0, `items seen more than once: ${repeated.slice(0, 5).join(", ")}`);
      check(
        items.length === count,
        `the walk with ${limit.name}=${size} visited ${items.length} items; ${countField} says ${count}`,
      );
    },
  );

  // Just outside the bounds the spec gives limit and offset (as many as it gives).
  const outside: Record<string, number>[] = [
    ...(limit.minimum === undefined ? [] : [{ [limit.name]: limit.minimum - 1 }]),
    ...(limit.maximum === undefined ? [] : [{ [limit.name]: limit.maximum + 1 }]),
    { [limit.name]: -1 },
    ...(offset.minimum === undefined ? [] : [{ [offset.name]: offset.minimum - 1 }]),
  ];
  const bounds = `${limit.minimum ?? "…"}..${limit.maximum ?? "…"}`;
  scenario(
    {
      id: id("limit-bounds"),
      title: `${operationId}: ${limit.name} outside ${bounds} and negative ${offset.name} are refused (400) or clamped`,
      severity: "must",
      operation: operationId,
      needs,
      calls: outside.map((query) => `GET ?${q(query)}`),
    },
    async (api) => {
      const request = requestOf(api);
      const wrong: string[] = [];
      for (const query of outside) {
        const answer = await api.http.send({ ...request, query });
        if (answer.status === 400) continue;
        const got = answer.status === 200 ? readOffsetPage(list, answer.body, 0) : undefined;
        if (answer.status !== 200)
          wrong.push(`${answer.url} answered ${answer.status} (expected 400, or 200 clamped)`);
        else if (!got || (limit.maximum !== undefined && got.items.length > limit.maximum))
          wrong.push(
            `${answer.url} answered 200 with ${got ? got.items.length : "no"} ${itemsField} (at most ${limit.maximum})`,
          );
      }
      check(wrong.length === 0, wrong.join("; "));
    },
  );

  scenario(
    {
      id: id("default-limit"),
      title: `${operationId}: without ${limit.name} a page holds up to ${limit.default ?? "the default number of"} items (the documented default)`,
      severity: "should",
      operation: operationId,
      needs: [...needs, "state"],
      calls: [`GET (no ${limit.name})`],
    },
    async (api) => {
      const request = requestOf(api);
      const documented = limit.default;
      if (typeof documented !== "number") return api.skip(`the spec documents no default ${limit.name}`);
      const got = await page(api.http, list, request, undefined);
      const expected = Math.min(got.count, documented);
      check(
        got.items.length === expected,
        `without ${limit.name} the page holds ${got.items.length} items; ${countField} is ${got.count}, so the default ${documented} gives ${expected}`,
      );
    },
  );
}

type QuotaLimitRequest = components["schemas"]["QuotaLimitRequest"];
const QUOTA_REQUESTS = "/cloud/reseller/v1/limits_request";
const quotaRequests = offsetLists().find((l) => l.operation.path === QUOTA_REQUESTS);
const statuses = queryValues<components["schemas"]["QuotaLimitRequestStatus"]>(
  "listQuotaLimitRequests",
  "status",
);

scenario(
  {
    id: "pagination.offset.filters.listQuotaLimitRequests",
    title: "listQuotaLimitRequests: status (repeated) and client_id filter, and count counts the matches",
    severity: "must",
    operation: "listQuotaLimitRequests",
    needs: ["reseller", "state"],
    calls: [
      "GET (every page)",
      "GET ?status=<each>",
      `GET ?status=${statuses[0]}&status=${statuses.at(-1)}`,
      "GET ?client_id=<one>",
    ],
  },
  async ({ http, skip }) => {
    if (!quotaRequests) return skip(`GET ${QUOTA_REQUESTS} is not an offset list in the spec`);
    const list = quotaRequests;
    const request: Request = { method: "GET", path: QUOTA_REQUESTS, auth: "reseller" };
    const largest = largestPage(list);
    const { items, complete } = await walkOffset(http, list, request, largest, 5);
    if (!complete)
      return skip("more than 5 pages of quota limit requests: too many to compare filters against");
    const all = items.filter(isRecord) as Partial<QuotaLimitRequest>[];
    const cases: [Request["query"], (r: Partial<QuotaLimitRequest>) => boolean, string][] = [];
    for (const status of statuses) cases.push([{ status }, (r) => r.status === status, `status=${status}`]);
    const two = [statuses[0], statuses.at(-1)].filter((s) => s !== undefined);
    cases.push([
      { status: two },
      (r) => r.status !== undefined && two.includes(r.status),
      two.map((s) => `status=${s}`).join("&"),
    ]);
    const clientId = all[0]?.client_id;
    if (clientId !== undefined)
      cases.push([{ client_id: clientId }, (r) => r.client_id === clientId, `client_id=${clientId}`]);
    const wrong: string[] = [];
    for (const [query, matches, label] of cases) {
      const { items: got } = await walkOffset(http, list, { ...request, query }, largest, 5);
      const stray = (got.filter(isRecord) as Partial<QuotaLimitRequest>[]).filter((r) => !matches(r));
      const expected = all.filter(matches).length;
      if (stray.length > 0)
        wrong.push(
          `${label} returned ${stray.length} non-matching (e.g. id ${stray[0]?.id}, status ${stray[0]?.status}, client ${stray[0]?.client_id})`,
        );
      else if (got.length !== expected)
        wrong.push(`${label} returned ${got.length} items; ${expected} of all match`);
    }
    check(wrong.length === 0, wrong.join("; "));
  },
);
