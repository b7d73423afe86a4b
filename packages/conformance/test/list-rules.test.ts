// The list rules derived from the spec (filters, orderings) and the ones an active run used to
// assert on its own (limit bounds, the default limit, a page walk's total, the last page, an unknown
// id), each on exchanges made up here: what they judge on a page, and across the pages of a walk.
// Which parameters are filters and orderings, their values and the lists' names come from the model.

import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { listFilters, listOrderings } from "../src/facts/list-facts.js";
import { offsetList } from "../src/facts/offset.js";
import { pageList } from "../src/facts/pages.js";
import { specModel } from "../src/facts/spec.js";
import { createJudge } from "../src/judge/judge.js";
import type { ObservedExchange } from "../src/shared/exchange.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const aiTasks = pageList(operationById(model, "listAiTasks"));
const quota = offsetList(operationById(model, "listQuotaLimitRequests"));
const regions = offsetList(operationById(model, "listRegions"));
const ai = aiTasks.pagination;

function exchange(url: string, body: unknown, over: Partial<ObservedExchange> = {}): ObservedExchange {
  return {
    method: "GET",
    url,
    requestHeaders: { authorization: `${tokenPrefix}1234$abcdefghijklmnop` },
    status: 200,
    responseHeaders: { "content-type": "application/json" },
    body: JSON.stringify(body),
    at: 1_000_000,
    durationMs: 1,
    ...over,
  };
}

function judged(exchanges: ObservedExchange[]) {
  const judge = createJudge();
  for (const e of exchanges) judge.judge(e);
  const results = judge.results({ strict: true });
  const result = (id: string) => results.find((r) => r.id === id);
  return { status: (id: string) => result(id)?.status, reason: (id: string) => result(id)?.reason };
}

/** A page of AI tasks: `tasks` as [task_id, field values]. */
function aiPage(query: Record<string, string | number>, tasks: Record<string, string>[], count: number) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return exchange(`${aiTasks.operation.path}?${qs}`, {
    [ai.countField]: count,
    [ai.itemsField]: tasks,
    [ai.nextField]: null,
    [ai.previousField]: null,
  });
}

describe("what the spec model says a list's query does", () => {
  it("finds the filters and orderings the seed documents, and leaves open what it leaves open", () => {
    expect(
      listFilters(aiTasks.operation)
        .map((f) => f.field)
        .sort(),
    ).toEqual(["status", "task_id", "task_name"]);
    // date_created's matching is x-unspecified: no filter rule for it.
    expect(listFilters(aiTasks.operation).map((f) => f.field)).not.toContain("date_created");
    expect(listFilters(quota.operation).map((f) => [f.field, f.many])).toEqual([
      ["client_id", false],
      ["status", true],
    ]);
    const [ordering] = listOrderings(aiTasks.operation);
    // started_at names no field of a task: the default order's key, whose direction is left open.
    expect(ordering?.byField.sort()).toEqual(["status", "task_id", "task_name"]);
    expect(listFilters(regions.operation)).toEqual([]);
  });
});

describe("filters, on every page", () => {
  const filter = listFilters(aiTasks.operation).find((f) => f.field === "task_name");
  const [one, other] = (filter?.parameter.enum ?? []).map(String);
  if (!one || !other) throw new Error("the spec lists fewer than two task names");
  const id = `pagination.page.filters.${aiTasks.operation.operationId}`;
  const task = (n: number, name: string) => ({ task_id: `t${n}`, task_name: name });

  it("a filter honoured on every page passes; on the first page only, it fails naming the item", () => {
    const q = (page: number) => ({ task_name: one, [ai.pageParam]: page, [ai.limitParam]: 2 });
    const honoured = [
      aiPage(q(1), [task(1, one), task(2, one)], 4),
      aiPage(q(2), [task(3, one), task(4, one)], 4),
    ];
    expect(judged(honoured).status(id)).toBe("passed");
    const laterPages = [
      aiPage(q(1), [task(1, one), task(2, one)], 4),
      aiPage(q(2), [task(3, other), task(4, one)], 4),
    ];
    const { status, reason } = judged(laterPages);
    expect(status(id)).toBe("failed");
    expect(reason(id)).toContain(`task_name is not ${one}`);
    expect(reason(id)).toContain("task_id:t3");
  });

  it("a UUID filter matches in either case; a value fuzz marks open is not judged", () => {
    const uuidFilter = listFilters(aiTasks.operation).find((f) => f.parameter.format === "uuid");
    if (!uuidFilter) throw new Error("the AI task list has no UUID filter in the spec");
    const taskId = "6e2b4f10-8c3a-4d5e-9f7a-1b2c3d4e5f60";
    const page = (asked: string, over: Partial<ObservedExchange> = {}) => {
      const e = aiPage({ [uuidFilter.parameter.name]: asked, [ai.pageParam]: 1 }, [{ task_id: taskId }], 1);
      return { ...e, ...over };
    };
    expect(judged([page(taskId.toUpperCase())]).status(id)).toBe("passed");
    expect(judged([page("7a3c5e21-9d4b-4e6f-8a1b-2c3d4e5f6a71")]).status(id)).toBe("failed");
    expect(
      judged([
        page("7a3c5e21-9d4b-4e6f-8a1b-2c3d4e5f6a71", { openParameters: [uuidFilter.parameter.name] }),
      ]).status(id),
    ).not.toBe("failed");
  });

  it("a repeated filter: an item of any value asked passes; nothing asked, nothing judged", () => {
    const status = listFilters(quota.operation).find((f) => f.many)?.parameter;
    const values = (status?.items?.enum ?? []).map(String);
    const [a, b, c] = values;
    if (!a || !b || !c) throw new Error("the spec lists fewer than three quota request statuses");
    const url = (query: string) =>
      `${quota.operation.path}?${query}&${quota.limit.name}=5&${quota.offset.name}=0`;
    const page = (query: string, statuses: string[]) =>
      exchange(url(query), {
        [quota.pagination.countField]: statuses.length,
        [quota.pagination.itemsField]: statuses.map((s, i) => ({ id: i, status: s })),
      });
    const rid = `pagination.offset.filters.${quota.operation.operationId}`;
    const two = `status=${encodeURIComponent(a)}&status=${encodeURIComponent(b)}`;
    expect(judged([page(two, [a, b, a])]).status(rid)).toBe("passed");
    expect(judged([page(two, [a, c])]).status(rid)).toBe("failed");
    expect(judged([page("client_id=1", [])]).status(rid)).toBe("passed");
    expect(judged([page("x=1", [a, b, c])]).status(rid)).toBe("skipped");
  });
});

describe("orderings, across pages", () => {
  const id = `pagination.page.ordering-sorts.${aiTasks.operation.operationId}`;
  const q = (page: number) => ({ ordering: "task_id", [ai.pageParam]: page, [ai.limitParam]: 2 });
  const t = (taskId: string) => ({ task_id: taskId });

  it("sorted within and across pages passes; a page that restarts the order fails, naming the pair", () => {
    expect(judged([aiPage(q(1), [t("a"), t("b")], 4), aiPage(q(2), [t("c"), t("d")], 4)]).status(id)).toBe(
      "passed",
    );
    const restarted = judged([aiPage(q(1), [t("c"), t("d")], 4), aiPage(q(2), [t("a"), t("b")], 4)]);
    expect(restarted.status(id)).toBe("failed");
    expect(restarted.reason(id)).toContain('"d" comes before "a" (the last item of the page before)');
    // Out of order inside one page.
    expect(judged([aiPage(q(1), [t("b"), t("a")], 2)]).status(id)).toBe("failed");
  });

  it("the default order's key (no field of a task) is not judged", () => {
    const started = { ordering: "started_at", [ai.pageParam]: 1, [ai.limitParam]: 2 };
    expect(judged([aiPage(started, [t("b"), t("a")], 2)]).status(id)).toBe("skipped");
  });
});

describe("bounds, defaults, the last page, unknown ids", () => {
  const url = (query: string) => `${regions.operation.path}?${query}`;
  const body = (n: number, count: number) => ({
    [regions.pagination.countField]: count,
    [regions.pagination.itemsField]: Array.from({ length: n }, (_, i) => ({ id: i })),
  });

  it("a limit past the maximum: 400 or a clamped page pass, a longer page fails", () => {
    const max = regions.limit.maximum;
    if (max === undefined) throw new Error("the spec gives limit no maximum");
    const id = `pagination.offset.limit-bounds.${regions.operation.operationId}`;
    const over = url(`${regions.limit.name}=${max + 1}`);
    expect(judged([exchange(over, { message: "limit too large" }, { status: 400 })]).status(id)).toBe(
      "passed",
    );
    expect(judged([exchange(over, body(3, 3))]).status(id)).toBe("passed");
    expect(judged([exchange(over, body(max + 1, max + 5))]).status(id)).toBe("failed");
  });

  it("without limit, a page of the documented default (a should); a short page warns", () => {
    const documented = Number(regions.limit.default);
    const id = `pagination.offset.default-limit.${regions.operation.operationId}`;
    expect(judged([exchange(url(""), body(3, 3))]).status(id)).toBe("passed");
    const short = judged([exchange(url(""), body(2, documented + 10))]);
    expect(short.status(id)).toBe("failed");
    expect(short.reason(id)).toContain(`the default ${documented}`);
  });

  it("the page that reaches count with a next link fails; page 1 with a previous fails", () => {
    const id = `pagination.page.last-page-next-null.${aiTasks.operation.operationId}`;
    const last = (next: string | null) =>
      exchange(`${aiTasks.operation.path}?${ai.pageParam}=2&${ai.limitParam}=2`, {
        [ai.countField]: 3,
        [ai.itemsField]: [{ task_id: "c" }],
        [ai.nextField]: next,
        [ai.previousField]: `${ai.pageParam}=1&${ai.limitParam}=2`,
      });
    expect(judged([last(null)]).status(id)).toBe("passed");
    expect(judged([last(`${ai.pageParam}=3&${ai.limitParam}=2`)]).status(id)).toBe("failed");
  });

  it("a page past the last: its previous is left open (fuzz asks for page 2^31), a wrong next still fails", () => {
    const id = `pagination.page.next-previous-neighbours.${aiTasks.operation.operationId}`;
    const beyond = (page: number, previous: string | null, next: string | null = null) =>
      exchange(`${aiTasks.operation.path}?${ai.pageParam}=${page}&${ai.limitParam}=2`, {
        [ai.countField]: 3,
        [ai.itemsField]: [],
        [ai.nextField]: next,
        [ai.previousField]: previous,
      });
    // The seed says nothing of pages past the end: naming the last page, or none, is the server's choice.
    expect(judged([beyond(2 ** 31, `${ai.pageParam}=2&${ai.limitParam}=2`)]).status(id)).toBe("passed");
    expect(judged([beyond(9, null)]).status(id)).toBe("passed");
    // Page 2 of 3 items in pages of 2 is no page past the end: its previous must name page 1.
    const second = exchange(`${aiTasks.operation.path}?${ai.pageParam}=2&${ai.limitParam}=2`, {
      [ai.countField]: 3,
      [ai.itemsField]: [{ task_id: "c" }],
      [ai.nextField]: null,
      [ai.previousField]: `${ai.pageParam}=5&${ai.limitParam}=2`,
    });
    expect(judged([second]).status(id)).toBe("failed");
    expect(judged([beyond(9, null, `${ai.pageParam}=3&${ai.limitParam}=2`)]).status(id)).toBe("failed");
  });

  it("a page walk whose pages hold fewer items than count says fails; one that adds up passes", () => {
    const id = `pagination.page.count-is-total.${aiTasks.operation.operationId}`;
    const p = (page: number, ids: string[], count: number) =>
      aiPage(
        { [ai.pageParam]: page, [ai.limitParam]: 2 },
        ids.map((x) => ({ task_id: x })),
        count,
      );
    expect(judged([p(1, ["a", "b"], 3), p(2, ["c"], 3)]).status(id)).toBe("passed");
    expect(judged([p(1, ["a", "b"], 4), p(2, ["c"], 4)]).status(id)).toBe("failed");
    expect(judged([p(1, ["a", "b"], 3), p(2, ["b"], 3)]).reason(id)).toContain("repeats items");
  });

  it("an unknown id: judged only where the request says so, and only its 404 passes", () => {
    const getTask = operationById(model, "getTask");
    const id = `errors.unknown-id-404.${getTask.operationId}`;
    const path = getTask.path.replace(/\{[^}]+\}/, "0b7c3c1e-1d2e-4f5a-8b9c-0d1e2f3a4b5c");
    const notFound = exchange(path, { message: "not found" }, { status: 404 });
    expect(judged([notFound]).status(id)).toBe("skipped");
    expect(judged([{ ...notFound, unknownParameter: "task_id" }]).status(id)).toBe("passed");
    expect(judged([{ ...notFound, status: 200, unknownParameter: "task_id" }]).status(id)).toBe("failed");
  });
});

describe("a limit the spec's bounds leave to clamping", () => {
  it("a page for a limit below the minimum, clamped by the server, is no page longer than limit", () => {
    const min = regions.limit.minimum;
    if (min === undefined) throw new Error("the spec gives limit no minimum");
    const id = `pagination.offset.page-within-limit.${regions.operation.operationId}`;
    const clamped = exchange(`${regions.operation.path}?${regions.limit.name}=${min - 1}`, {
      [regions.pagination.countField]: 5,
      [regions.pagination.itemsField]: [{ id: 1 }, { id: 2 }],
    });
    expect(judged([clamped]).status(id)).toBe("skipped");
    // Within the bounds, a longer page still fails.
    const longer = exchange(`${regions.operation.path}?${regions.limit.name}=${min}`, {
      [regions.pagination.countField]: 5,
      [regions.pagination.itemsField]: [{ id: 1 }, { id: 2 }],
    });
    expect(judged([longer]).status(id)).toBe("failed");
  });
});

describe("a walk whose limit the server clamps", () => {
  it("pages asked past the maximum are no steps of a walk: nothing about walks is judged on them", () => {
    const max = regions.limit.maximum;
    if (max === undefined) throw new Error("the spec gives limit no maximum");
    const asked = max + 1;
    const page = (offset: number, ids: number[]) =>
      exchange(`${regions.operation.path}?${regions.limit.name}=${asked}&${regions.offset.name}=${offset}`, {
        [regions.pagination.countField]: max + 1,
        [regions.pagination.itemsField]: ids.map((id) => ({ id })),
      });
    // Clamped to the maximum: the walk by the asked limit would skip the last item.
    const all = Array.from({ length: max }, (_, i) => i);
    const { status } = judged([page(0, all), page(asked, [])]);
    for (const rule of ["walk-visits-each-once", "count-is-total", "page-within-limit"])
      expect(status(`pagination.offset.${rule}.${regions.operation.operationId}`), rule).not.toBe("failed");
  });
});
