// An answer read as a page of a list (src/judge/list-pages.ts), on pages made up here: which walk
// each page is placed in, and which pages are no step of a walk at all.

import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { offsetList } from "../src/facts/offset.js";
import { pageList } from "../src/facts/pages.js";
import { specModel } from "../src/facts/spec.js";
import { offsetPageOf, pagePageOf } from "../src/judge/list-pages.js";
import type { Walks } from "../src/judge/walks.js";
import type { AnswerEvent } from "../src/rules/types.js";
import type { ObservedExchange } from "../src/shared/exchange.js";
import { exchangeWith } from "./exchange-fixture.js";

const model = specModel();
const regions = offsetList(operationById(model, "listRegions"));
const pageOperation = model.operations.find((o) => o.pagination?.style === "page");
if (!pageOperation) throw new Error("the spec has no page-style list");
const pages = pageList(pageOperation);

/** Walks that remember where each page was placed, and place it nowhere. */
function placements() {
  const placed: { key: string; index: number; step: number }[] = [];
  const walks: Walks = {
    place(key, index, step) {
      placed.push({ key, index, step });
      return {
        continues: false,
        walkCount: undefined,
        repeated: [],
        visitedAtEnd: undefined,
        before: 0,
        after: 0,
      };
    },
    dropped: { walks: 0, items: 0 },
  };
  return { walks, placed };
}

function event(url: string, body: unknown, over: Partial<ObservedExchange> = {}): AnswerEvent {
  const operation = url.startsWith(regions.operation.path) ? regions.operation : pages.operation;
  const evidence = { method: "GET", path: url, status: 200, excerpt: "" };
  return {
    exchange: exchangeWith("1$token", { url, ...over }),
    operation,
    params: {},
    query: new URLSearchParams(url.split("?")[1]),
    answer: {
      method: "GET",
      template: operation.path,
      url,
      status: 200,
      headers: {},
      text: "",
      body,
      contentType: null,
    },
    evidence,
    judged: { operationId: operation.operationId, evidence, must: [], should: [] },
    auth: { recorded: true, scheme: undefined, token: "token 1", acceptedBy: new Set(), role: undefined },
    recent: { succeeded: 1, limited: false },
  };
}

const offsetPage = (query: string, ids: number[]) =>
  event(`${regions.operation.path}?${query}`, {
    [regions.pagination.countField]: 10,
    [regions.pagination.itemsField]: ids.map((id) => ({ id })),
  });

describe("offset pages", () => {
  const { limit, offset } = regions;

  it("a page on the walk's grid is placed by its index; one off it starts a walk of its own", () => {
    const { walks, placed } = placements();
    expect(offsetPageOf(offsetPage(`${limit.name}=2&${offset.name}=4`, [5, 6]), walks)).toMatchObject({
      offset: 4,
      limit: 2,
      limitAsked: true,
      count: 10,
      items: 2,
    });
    offsetPageOf(offsetPage(`${offset.name}=3&${limit.name}=2`, [4, 5]), walks);
    const [onGrid, offGrid] = placed;
    expect(onGrid).toMatchObject({ index: 2, step: 2 });
    expect(offGrid).toEqual({ key: `${onGrid?.key}|3`, index: 0, step: 2 });
  });

  it("no walk for a page whose paging the spec leaves open, or whose limit is malformed", () => {
    const { walks, placed } = placements();
    const open = { ...offsetPage(`${limit.name}=2`, [1, 2]) };
    open.exchange = { ...open.exchange, openParameters: [limit.name] };
    expect(offsetPageOf(open, walks)).toBeUndefined();
    expect(offsetPageOf(offsetPage(`${limit.name}=two`, [1, 2]), walks)).toBeUndefined();
    expect(offsetPageOf(offsetPage(`${offset.name}=-2`, [1, 2]), walks)).toBeUndefined();
    expect(placed).toEqual([]);
  });
});

describe("page pages", () => {
  const { page, limit, pagination } = pages;
  const pagePage = (query: string, ids: number[]) =>
    event(`${pages.operation.path}?${query}`, {
      [pagination.countField]: 10,
      [pagination.itemsField]: ids.map((id) => ({ id })),
      [pagination.nextField]: "next-link",
      [pagination.previousField]: null,
    });

  it("page n is index n - 1 of its walk, its links read as sent", () => {
    const { walks, placed } = placements();
    expect(pagePageOf(pagePage(`${page.name}=3&${limit.name}=2`, [5, 6]), walks)).toMatchObject({
      page: 3,
      count: 10,
      next: "next-link",
      previous: null,
    });
    expect(placed).toMatchObject([{ index: 2, step: 2 }]);
  });

  it("no walk for page 0, or a body without its items", () => {
    const { walks, placed } = placements();
    expect(pagePageOf(pagePage(`${page.name}=0`, [1]), walks)).toBeUndefined();
    expect(pagePageOf(event(`${pages.operation.path}`, { nothing: [] }), walks)).toBeUndefined();
    expect(placed).toEqual([]);
  });
});
