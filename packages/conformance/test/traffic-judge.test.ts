// The traffic judge on exchanges made up here, at fixed times: what the proxy tests cannot pin
// without depending on the machine's speed (a burst's pace) or on a long session (the bounds).

import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { offsetList } from "../src/facts/offset.js";
import { burstThreshold, requestRate } from "../src/facts/rate.js";
import { specModel } from "../src/facts/spec.js";
import { createJudge, type JudgeOptions } from "../src/judge/judge.js";
import { facts } from "../src/rules/task-rules.js";
import type { ObservedExchange } from "../src/shared/exchange.js";
import { exchangeWith } from "./exchange-fixture.js";

const model = specModel();
const regions = offsetList(operationById(model, "listRegions"));
const { countField, itemsField } = regions.pagination;
const REGIONS = regions.operation.path;
const taskPath = (id: string) => facts().poll.path.replace(/\{[^}]+\}/, id);
const rate = requestRate();

const exchange = (over: Partial<ObservedExchange> & { url: string }) =>
  exchangeWith("1234$abcdefghijklmnop", over);

const page = (offset: number, limit: number, count: number, ids: number[], at = 1_000_000) =>
  exchange({
    url: `${REGIONS}?${regions.limit.name}=${limit}&${regions.offset.name}=${offset}`,
    body: JSON.stringify({ [countField]: count, [itemsField]: ids.map((id) => ({ id })) }),
    at,
  });

function judged(exchanges: ObservedExchange[], options: JudgeOptions = {}) {
  const judge = createJudge(options);
  for (const e of exchanges) judge.judge(e);
  const results = judge.results({ strict: true });
  const status = (id: string) => results.find((r) => r.id === id)?.status;
  return { judge, results, status, reason: (id: string) => results.find((r) => r.id === id)?.reason };
}

describe("offset walks", () => {
  const walk = `pagination.offset.walk-visits-each-once.${regions.operation.operationId}`;
  const stable = `pagination.offset.count-stable.${regions.operation.operationId}`;

  it("a walk whose pages arrive out of order, each item once, passes", () => {
    const { status } = judged([page(0, 2, 5, [1, 2]), page(4, 2, 5, [5]), page(2, 2, 5, [3, 4])]);
    expect(status(walk)).toBe("passed");
    expect(status(stable)).toBe("passed");
  });

  it("an item on two pages, a count that changes, a walk one item short: each fails", () => {
    expect(judged([page(0, 2, 5, [1, 2]), page(2, 2, 5, [2, 3]), page(4, 2, 5, [5])]).status(walk)).toBe(
      "failed",
    );
    expect(judged([page(0, 2, 5, [1, 2]), page(2, 2, 6, [3, 4])]).status(stable)).toBe("failed");
    const short = judged([page(0, 2, 5, [1, 2]), page(2, 2, 5, [4, 5]), page(4, 2, 5, [])]);
    expect(short.status(walk)).toBe("failed");
    expect(short.reason(walk)).toContain("visited 4 distinct items");
  });

  it("keeps at most `walks` walks, and says how many it let go unfinished", () => {
    const other = (offset: number, region: string, ids: number[]) => ({
      ...page(offset, 2, 6, ids),
      url: `${REGIONS}?${regions.limit.name}=2&${regions.offset.name}=${offset}&display_name=${region}`,
    });
    const { judge, status } = judged(
      [other(0, "a", [1, 2]), other(0, "b", [1, 2]), other(0, "c", [1, 2]), other(2, "a", [2, 3])],
      { limits: { walks: 2 } },
    );
    // "c" pushed out "a"; a's second page, a walk of its own now, pushed out "b". The repeat of
    // item 2 across a's pages goes unseen: that is what forgetting costs, and the report says so.
    expect(judge.summary().dropped.walks).toBe(2);
    expect(status(walk)).not.toBe("failed");
  });
});

describe("a burst", () => {
  const id = "rate-limit.burst-meets-429";
  const many = (n: number, spreadMs: number, status = () => 200) =>
    Array.from({ length: n }, (_, i) =>
      exchange({
        url: `${REGIONS}?${regions.limit.name}=1`,
        at: 1_000_000 + Math.floor((i * spreadMs) / n),
        status: status(),
      }),
    );

  it("more than twice the rate within a period, all 2xx, fails; one 429 among them passes", () => {
    const n = burstThreshold() + 5;
    expect(n).toBeGreaterThan(2 * rate.limit);
    expect(judged(many(n, rate.periodSeconds * 500)).status(id)).toBe("failed");
    let i = 0;
    expect(
      judged(many(n, rate.periodSeconds * 500, () => (i++ === 3 ? rate.exceededStatus : 200))).status(id),
    ).toBe("passed");
  });

  it("the same number spread over three periods is not judged", () => {
    expect(judged(many(burstThreshold() + 5, rate.periodSeconds * 3000)).status(id)).toBe("skipped");
  });

  it("nor a burst that started within a period but whose answers took longer (a slow hop)", () => {
    // The platform may have handled them over two periods: a correct limiter then answers no 429.
    const slow = many(burstThreshold() + 5, rate.periodSeconds * 500).map((e) => ({
      ...e,
      durationMs: rate.periodSeconds * 1000,
    }));
    expect(judged(slow).status(id)).toBe("skipped");
  });
});

describe("tasks", () => {
  const { finished, failed, states } = facts();
  const poll = (id: string, state: string, extra: object = {}) =>
    exchange({ url: taskPath(id), body: JSON.stringify({ id, state, ...extra }) });
  const before = states.filter((s) => s !== finished && !failed.includes(s));

  it("a state that moves back fails; forward passes", () => {
    const [first, second] = before;
    if (!first || !second) throw new Error("the spec lists fewer than two states before the terminal ones");
    const id = "0b7c3c1e-1d2e-4f5a-8b9c-0d1e2f3a4b5c";
    expect(judged([poll(id, first), poll(id, second)]).status("tasks.poll.state-moves-forward")).toBe(
      "passed",
    );
    expect(judged([poll(id, second), poll(id, first)]).status("tasks.poll.state-moves-forward")).toBe(
      "failed",
    );
    expect(judged([poll(id, finished), poll(id, second)]).status("tasks.poll.state-moves-forward")).toBe(
      "failed",
    );
  });

  it("an ERROR lists nothing: null or left out passes, a list fails; its reason must be there", () => {
    const id = "1b7c3c1e-1d2e-4f5a-8b9c-0d1e2f3a4b5c";
    const error = failed[0] ?? "";
    const rule = "tasks.error.created-resources-null";
    expect(judged([poll(id, error, { error: "quota", created_resources: null })]).status(rule)).toBe(
      "passed",
    );
    expect(judged([poll(id, error, { error: "quota" })]).status(rule)).toBe("passed");
    expect(
      judged([poll(id, error, { error: "q", created_resources: { volumes: ["x"] } })]).status(rule),
    ).toBe("failed");
    expect(judged([poll(id, error, { error: "" })]).status("tasks.error.has-reason")).toBe("failed");
  });

  it("keeps at most `tasks` tasks; one forgotten before its end is counted", () => {
    const [first] = before;
    const { judge } = judged(
      [poll("a", first ?? ""), poll("b", finished), poll("c", first ?? ""), poll("d", first ?? "")],
      { limits: { tasks: 2 } },
    );
    // "a" (unfinished) and "b" (finished) were forgotten: only "a" is a loss.
    expect(judge.summary().dropped.tasks).toBe(1);
  });
});

describe("what is not the spec's", () => {
  it("an operation the spec does not describe is counted apart and never judged", () => {
    const { judge, results } = judged([
      exchange({ url: "/cloud/v9/nothing?x=1" }),
      exchange({ url: REGIONS, status: null }),
    ]);
    expect(judge.summary()).toMatchObject({ exchanges: 2, judged: 0, noAnswer: 1 });
    expect(judge.summary().undescribed).toEqual({ count: 1, examples: ["GET /cloud/v9/nothing"] });
    expect(results.every((r) => r.status === "skipped")).toBe(true);
  });

  it("a token in the traffic never reaches a result, even one a server echoed", () => {
    const token = "1234$abcdefghijklmnop";
    const { judge, results } = judged([
      exchange({ url: REGIONS, status: 500, body: `{"message":"bad token ${token}"}` }),
    ]);
    const text = JSON.stringify(
      judge.report({ target: "t", startedAt: new Date(0), options: {}, strict: false }),
    );
    expect(text).not.toContain(token);
    expect(text).not.toContain("abcdefghijklmnop");
    expect(results.length).toBeGreaterThan(0);
  });
});
