// Parity's pure parts: the shape of an answer (field paths, JSON types, enum values only where the
// spec declares an enum), the comparison of two shapes, the replay plan and the report's figures.
// Recorded-exchange fixtures in, no server.

import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { specModel } from "../src/facts/spec.js";
import { compareShapes } from "../src/parity/compare.js";
import { enumPathsOf } from "../src/parity/enum-paths.js";
import { planReplay } from "../src/parity/plan.js";
import { toParityMarkdown, toTextLines } from "../src/parity/render.js";
import { buildParityReport } from "../src/parity/report.js";
import { type AnswerText, shapeOf } from "../src/parity/shape.js";
import type { ObservedExchange } from "../src/shared/exchange.js";

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): AnswerText => ({
  status,
  headers: { "content-type": "application/json; charset=utf-8", ...headers },
  text: JSON.stringify(body),
});

const regions = operationById(specModel(), "listRegions");

describe("shapeOf", () => {
  it("names every field path, array items merged as field[], with the JSON types seen there", () => {
    const shape = shapeOf(
      json({
        count: 2,
        results: [
          { id: 1, name: "a", tags: [] },
          { id: 2, name: null, ratio: 0.5 },
        ],
      }),
    );
    expect(Object.fromEntries([...shape.fields].map(([path, types]) => [path, [...types].sort()]))).toEqual({
      "": ["object"],
      count: ["integer"],
      results: ["array"],
      "results[]": ["object"],
      "results[].id": ["integer"],
      "results[].name": ["null", "string"],
      "results[].tags": ["array"],
      "results[].ratio": ["number"],
    });
    expect(shape).toMatchObject({
      status: 200,
      mediaType: "application/json",
      retryAfter: false,
      body: "json",
    });
  });

  it("keeps no value but the strings at the paths the spec types with an enum", () => {
    const paths = enumPathsOf(regions, 200, "application/json");
    // The spec lists a region's access levels; its states it shows by example only.
    expect(paths.has("results[].access_level")).toBe(true);
    expect(paths.has("results[].state")).toBe(false);
    const shape = shapeOf(
      json({ results: [{ access_level: "core", state: "ACTIVE", display_name: "Luxembourg-2", id: 76 }] }),
      paths,
    );
    expect([...shape.values]).toEqual([["results[].access_level", new Set(["core"])]]);
  });

  it("tells an empty body, a text body and one that was not kept apart", () => {
    expect(shapeOf({ status: 204, headers: {}, text: "" }).body).toBe("empty");
    expect(
      shapeOf({ status: 502, headers: { "content-type": "text/html" }, text: "<h1>bad</h1>" }).body,
    ).toBe("text");
    expect(shapeOf({ status: 200, headers: {}, text: undefined }).body).toBe("unread");
    expect(shapeOf({ status: 429, headers: { "retry-after": "3" }, text: "" }).retryAfter).toBe(true);
  });
});

describe("compareShapes", () => {
  const paths = enumPathsOf(regions, 200, "application/json");
  const recorded = shapeOf(
    json({ count: 1, results: [{ id: 7, access_level: "core", country: "LU", zone: "EMEA" }] }),
    paths,
  );

  it("finds nothing between answers that differ only in values", () => {
    const replayed = shapeOf(
      json({ count: 900, results: [{ id: 76, access_level: "core", country: "DE", zone: "APAC" }] }),
      paths,
    );
    expect(compareShapes(recorded, replayed)).toEqual([]);
  });

  it("says per field path what differs, from the recording's side", () => {
    const replayed = shapeOf(
      json({ count: "1", results: [{ id: 76, access_level: "edge", zone: "EMEA", has_kvm: true }] }),
      paths,
    );
    expect(compareShapes(recorded, replayed)).toEqual(
      expect.arrayContaining([
        { kind: "missing", path: "results[].country", what: "missing in simulator" },
        { kind: "only", path: "results[].has_kvm", what: "only in simulator" },
        { kind: "type", path: "count", what: "type integer vs string" },
        { kind: "values", path: "results[].access_level", what: "values {core} vs {edge}" },
      ]),
    );
    expect(compareShapes(recorded, replayed)).toHaveLength(4);
  });

  it("says a status difference alone: bodies of two statuses are not compared field by field", () => {
    const replayed = shapeOf(json({ message: "not found" }, 404));
    expect(compareShapes(recorded, replayed, "target")).toEqual([
      { kind: "status", path: "(status)", what: "status 200 vs 404" },
    ]);
  });

  it("compares the media type and Retry-After's presence", () => {
    const limited = shapeOf(json({}, 429, { "retry-after": "2" }));
    const replayed = shapeOf({ status: 429, headers: { "content-type": "text/plain" }, text: "" });
    expect(compareShapes(limited, replayed).map((d) => d.what)).toEqual([
      "content type application/json vs text/plain",
      "missing in simulator",
      "body json vs empty",
    ]);
  });

  it("says a missing object once, not each of its fields; an empty list hides no field", () => {
    const withObject = shapeOf(json({ coordinates: { lat: 1, lon: 2 }, results: [{ id: 1 }] }));
    const without = shapeOf(json({ results: [] }));
    expect(compareShapes(withObject, without)).toEqual([
      { kind: "missing", path: "coordinates", what: "missing in simulator" },
    ]);
  });

  it("takes an integer and a fraction for the same JSON type", () => {
    expect(compareShapes(shapeOf(json({ price: 2 })), shapeOf(json({ price: 2.5 })))).toEqual([]);
  });
});

const exchange = (method: string, url: string, status: number | null = 200): ObservedExchange => ({
  method,
  url,
  requestHeaders: {},
  status,
  responseHeaders: {},
  body: "{}",
  at: 0,
  durationMs: 1,
});

describe("planReplay", () => {
  const recorded = [
    exchange("GET", "/cloud/v1/regions?limit=2"),
    exchange("POST", "/cloud/v1/volumes/1/76"),
    exchange("GET", "/cdn/resources"),
    exchange("GET", "/cloud/v1/projects", null),
    exchange("GET", "/cloud/v1/tasks/abc"),
    exchange("GET", "/iam/clients/me"),
  ];

  it("replays the answered reads of the spec's operations, up to the cap, and says why not the rest", () => {
    const plan = planReplay(recorded, { allowWrites: false, maxEntries: 2 });
    expect(plan.replay.map((p) => [p.index, p.operation.operationId])).toEqual([
      [0, "listRegions"],
      [4, "getTask"],
    ]);
    expect(plan.skipped.map((s) => [s.index, s.reason])).toEqual([
      [1, "a write"],
      [2, "not in the spec"],
      [3, "no recorded answer"],
      [5, "over the cap"],
    ]);
  });

  it("replays writes in recorded order with allowWrites", () => {
    const plan = planReplay(recorded, { allowWrites: true, maxEntries: 10 });
    expect(plan.replay.map((p) => p.index)).toEqual([0, 1, 4, 5]);
  });
});

describe("buildParityReport", () => {
  it("counts per operation and overall, differences by path with how many exchanges showed each", () => {
    const missing = { kind: "missing" as const, path: "results[].country", what: "missing in simulator" };
    const report = buildParityReport(
      {
        version: "0",
        har: "rec.har",
        target: "sim",
        startedAt: "2026-01-01T00:00:00.000Z",
        durationMs: 1,
        entries: 5,
        outside: 0,
        interrupted: false,
      },
      [
        { index: 0, operationId: "listRegions", method: "GET", path: "/r", differences: [missing] },
        { index: 1, operationId: "listRegions", method: "GET", path: "/r", differences: [missing] },
        { index: 2, operationId: "listRegions", method: "GET", path: "/r", differences: [] },
        { index: 3, operationId: "listProjects", method: "GET", path: "/p", differences: [] },
      ],
      [{ index: 4, method: "POST", path: "/v", reason: "a write" }],
    );
    expect(report).toMatchObject({ compared: 4, identical: 2, parity: 50, skipped: { "a write": 1 } });
    expect(report.operations).toEqual([
      { operationId: "listProjects", compared: 1, identical: 1, parity: 100, differences: [] },
      {
        operationId: "listRegions",
        compared: 3,
        identical: 1,
        parity: 33.3,
        differences: [{ path: "results[].country", what: "missing in simulator", count: 2 }],
      },
    ]);
    expect(toTextLines(report)).toContain("    results[].country: missing in simulator (2/3)");
    expect(toTextLines(report).at(-1)).toBe(
      "Parity 50%: 2 of 4 exchanges identical in shape; not replayed: 1 writes (--allow-writes sends them)",
    );
    expect(toParityMarkdown(report)).toContain("| `results[].country` | missing in simulator | 2/3 |");
  });
});
