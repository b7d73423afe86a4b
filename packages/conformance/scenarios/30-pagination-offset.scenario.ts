// Offset pagination on every offset list: `count` is the total of all pages, no page is longer
// than `limit`, walking by `limit` until offset >= count visits every item once, `limit` outside
// 1..1000 and a negative `offset` are refused (400) or clamped, and filters filter.

import type { RunContext } from "../src/context.js";
import type { Call } from "../src/http.js";
import { expectStatus, identity, walkOffset } from "../src/lists.js";
import { check, type Need, scenario } from "../src/scenario.js";

interface OffsetList {
  operation: string;
  needs: Need[];
  call(run: RunContext): Call;
}

const LISTS: OffsetList[] = [
  { operation: "listRegions", needs: [], call: () => ({ method: "GET", path: "/cloud/v1/regions" }) },
  {
    operation: "listInstances",
    needs: [],
    call: (run) => ({
      method: "GET",
      path: "/cloud/v1/instances/{project_id}/{region_id}",
      params: { project_id: run.discovered.projectId, region_id: run.discovered.regionId },
    }),
  },
  {
    operation: "listQuotaLimitRequests",
    needs: ["reseller"],
    call: () => ({ method: "GET", path: "/cloud/reseller/v1/limits_request", auth: "reseller" }),
  },
];

/** A page size that needs a few pages, never more than 8. */
const walkLimit = (count: number) => Math.min(1000, Math.max(1, Math.ceil(count / 4)));

for (const list of LISTS) {
  const id = (check: string) => `pagination.offset.${check}.${list.operation}`;

  scenario(
    {
      id: id("count-is-total"),
      title: `${list.operation}: count is the total of all pages, whatever the limit`,
      severity: "must",
      operation: list.operation,
      needs: [...list.needs, "state"],
      calls: ["GET ?limit=1000&offset=0", "GET ?limit=1&offset=0"],
    },
    async ({ http, run }) => {
      const call = list.call(run);
      const big = await http.call({ ...call, query: { limit: 1000, offset: 0 } });
      const one = await http.call({ ...call, query: { limit: 1, offset: 0 } });
      expectStatus(big, 200);
      expectStatus(one, 200);
      const total = big.body.count;
      check(Number.isInteger(total) && total >= 0, `count ${total} is not an integer >= 0`);
      check(one.body.count === total, `count is ${total} with limit=1000 but ${one.body.count} with limit=1`);
      const expected = Math.min(total, 1000);
      check(
        big.body.results.length === expected,
        `with limit=1000 the first page holds ${big.body.results.length} items but count says ${total} in all (expected ${expected} on the page)`,
      );
    },
  );

  scenario(
    {
      id: id("count-stable"),
      title: `${list.operation}: count stays the same on every page`,
      severity: "must",
      operation: list.operation,
      needs: [...list.needs, "state"],
      calls: ["GET ?limit=⌈count/4⌉&offset=0,…"],
    },
    async ({ http, run }) => {
      const call = list.call(run);
      const first = await http.call({ ...call, query: { limit: 1 } });
      expectStatus(first, 200);
      const { pages } = await walkOffset(http, call, walkLimit(first.body.count), 8);
      const counts = [...new Set(pages.map((p) => p.count))];
      check(
        counts.length === 1,
        `count changed between pages: ${pages.map((p) => `offset ${p.offset}: ${p.count}`).join(", ")}`,
      );
    },
  );

  scenario(
    {
      id: id("page-within-limit"),
      title: `${list.operation}: no page is longer than limit`,
      severity: "must",
      operation: list.operation,
      needs: [...list.needs, "state"],
      calls: ["GET ?limit=1", "GET ?limit=2", "GET ?limit=7&offset=1"],
    },
    async ({ http, run }) => {
      const call = list.call(run);
      for (const [limit, offset] of [
        [1, 0],
        [2, 0],
        [7, 1],
      ] as const) {
        const answer = await http.call({ ...call, query: { limit, offset } });
        expectStatus(answer, 200);
        check(
          answer.body.results.length <= limit,
          `${answer.url} returned ${answer.body.results.length} items, more than limit=${limit}`,
        );
      }
    },
  );

  scenario(
    {
      id: id("walk-visits-each-once"),
      title: `${list.operation}: walking by limit until offset >= count visits every item exactly once`,
      severity: "must",
      operation: list.operation,
      needs: [...list.needs, "state"],
      calls: ["GET ?limit=1", "GET ?limit=⌈count/4⌉&offset=0, ⌈count/4⌉, …"],
    },
    async ({ http, run }) => {
      const call = list.call(run);
      const first = await http.call({ ...call, query: { limit: 1 } });
      expectStatus(first, 200);
      const count = first.body.count;
      const limit = walkLimit(count);
      const { items, complete } = await walkOffset(http, call, limit, 8);
      check(complete, `the walk with limit=${limit} did not reach offset >= count (${count}) in 8 pages`);
      const seen = new Map<string, number>();
      for (const item of items) seen.set(identity(item), (seen.get(identity(item)) ?? 0) + 1);
      const repeated = [...seen].filter(([, n]) => n > 1).map(([key]) => key);
      check(repeated.length === 0, `items seen more than once: ${repeated.slice(0, 5).join(", ")}`);
      check(
        items.length === count,
        `the walk with limit=${limit} visited ${items.length} items; count says ${count}`,
      );
    },
  );

  scenario(
    {
      id: id("limit-bounds"),
      title: `${list.operation}: limit outside 1..1000 and negative offset are refused (400) or clamped`,
      severity: "must",
      operation: list.operation,
      needs: list.needs,
      calls: ["GET ?limit=0", "GET ?limit=1001", "GET ?limit=-1", "GET ?offset=-1"],
    },
    async ({ http, run }) => {
      const call = list.call(run);
      const wrong: string[] = [];
      for (const query of [{ limit: 0 }, { limit: 1001 }, { limit: -1 }, { offset: -1 }]) {
        const answer = await http.call({ ...call, query });
        if (answer.status === 400) continue;
        if (answer.status !== 200)
          wrong.push(`${answer.url} answered ${answer.status} (expected 400, or 200 clamped)`);
        else if (!Array.isArray(answer.body?.results) || answer.body.results.length > 1000)
          wrong.push(`${answer.url} answered 200 with ${answer.body?.results?.length} items (at most 1000)`);
      }
      check(wrong.length === 0, wrong.join("; "));
    },
  );

  scenario(
    {
      id: id("default-limit"),
      title: `${list.operation}: without limit a page holds up to 1000 items (the documented default)`,
      severity: "should",
      operation: list.operation,
      needs: [...list.needs, "state"],
      calls: ["GET (no limit)"],
    },
    async ({ http, run }) => {
      const answer = await http.call(list.call(run));
      expectStatus(answer, 200);
      const expected = Math.min(answer.body.count, 1000);
      check(
        answer.body.results.length === expected,
        `without limit the page holds ${answer.body.results.length} items; count is ${answer.body.count}, so the default 1000 gives ${expected}`,
      );
    },
  );
}

scenario(
  {
    id: "pagination.offset.filters.listQuotaLimitRequests",
    title: "listQuotaLimitRequests: status (repeated) and client_id filter, and count counts the matches",
    severity: "must",
    operation: "listQuotaLimitRequests",
    needs: ["reseller", "state"],
    calls: [
      "GET ?limit=1000 (all)",
      "GET ?status=<each>",
      "GET ?status=done&status=rejected",
      "GET ?client_id=<one>",
    ],
  },
  async ({ http, skip }) => {
    const call: Call = { method: "GET", path: "/cloud/reseller/v1/limits_request", auth: "reseller" };
    const { items, complete } = await walkOffset(http, call, 1000, 5);
    if (!complete) return skip("more than 5,000 quota limit requests: too many to compare filters against");
    const all = items as Record<string, any>[];
    const cases: [Call["query"], (r: Record<string, any>) => boolean, string][] = [];
    for (const status of ["done", "in progress", "rejected"])
      cases.push([{ status }, (r) => r.status === status, `status=${status}`]);
    cases.push([
      { status: ["done", "rejected"] },
      (r) => r.status === "done" || r.status === "rejected",
      "status=done&status=rejected",
    ]);
    const clientId = all[0]?.client_id;
    if (clientId !== undefined)
      cases.push([{ client_id: clientId }, (r) => r.client_id === clientId, `client_id=${clientId}`]);
    const wrong: string[] = [];
    for (const [query, matches, label] of cases) {
      const { items: got } = await walkOffset(http, { ...call, query }, 1000, 5);
      const stray = (got as Record<string, any>[]).filter((r) => !matches(r));
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
