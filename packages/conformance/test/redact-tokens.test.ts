// Redaction stays linear in the traffic however many tokens it carries: each token's patterns are
// built once, when it is first seen (counted here at the client's redactor), and every token is
// still gone from the report. A client that rotates its token per request made this quadratic.

import { operationById } from "@platform-api/spec";
import { describe, expect, it, vi } from "vitest";
import { offsetList } from "../src/facts/offset.js";
import { specModel } from "../src/facts/spec.js";
import { createJudge } from "../src/judge/judge.js";

/** How many keys the client's redactor was asked to build patterns for, over every call. */
const built = vi.hoisted(() => ({ keys: 0 }));
vi.mock("@platform-api/client/redact", async (original) => {
  const actual = await original<typeof import("@platform-api/client/redact")>();
  return {
    ...actual,
    createRedactor: (keys: readonly (string | undefined)[]) => {
      built.keys += keys.length;
      return actual.createRedactor(keys);
    },
  };
});

const model = specModel();
const regions = offsetList(operationById(model, "listRegions"));

function traffic(tokens: string[], scheme: string) {
  const judge = createJudge({ env: {} });
  for (const [i, token] of tokens.entries())
    judge.judge({
      method: "GET",
      url: `${regions.operation.path}?${regions.limit.name}=1&${regions.offset.name}=${i}`,
      requestHeaders: { authorization: `${scheme} ${token}` },
      status: 200,
      responseHeaders: { "content-type": "application/json" },
      // Off the schema (the count is text), so every exchange is evidence; and the token echoed.
      body: JSON.stringify({
        [regions.pagination.countField]: `you are ${token}`,
        [regions.pagination.itemsField]: [],
      }),
      at: 1_000_000 + i * 1000,
      durationMs: 1,
    });
  return judge.report({ target: "t", startedAt: new Date(), options: {}, strict: true });
}

// Counted, not timed: with n tokens, building per token costs n builds and rebuilding per exchange
// n × (n + 1) / 2, so a few dozen tell them apart as surely as hundreds (and redacting a report of
// hundreds costs seconds of CPU for nothing more).
describe("a token per request", () => {
  it("60 distinct tokens: each one's patterns built once, none left in the report", () => {
    const tokens = Array.from(
      { length: 60 },
      (_, i) => `${1000 + i}$${i.toString(16).padStart(8, "0")}c4b7d7a8f4f3a9d5e6`,
    );
    built.keys = 0;
    const report = traffic(tokens, "APIKey");
    // Once per token (and the few of the usage redactor): rebuilt per token, it was 60 × 61 / 2.
    expect(built.keys).toBeLessThanOrEqual(tokens.length + 10);
    const text = JSON.stringify(report);
    expect(tokens.filter((t) => text.includes(t) || text.includes(t.split("$")[1] as string))).toEqual([]);
    expect(text).toContain("***");
  }, 60_000);

  it("30 rotating 1 KB Bearer tokens: built once each, none left in the report", () => {
    const tokens = Array.from({ length: 30 }, (_, i) => `${i}-`.padEnd(1024, "abcdefghij0123456789"));
    built.keys = 0;
    const report = traffic(tokens, "Bearer");
    expect(built.keys).toBeLessThanOrEqual(tokens.length + 10);
    const text = JSON.stringify(report);
    expect(tokens.filter((t) => text.includes(t.slice(0, 64)))).toEqual([]);
  }, 60_000);
});
