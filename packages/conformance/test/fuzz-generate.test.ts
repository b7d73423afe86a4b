// What fuzz generates, from the spec model alone: the coverage phase's cases reach every bound,
// one past it, every enum value and one outside it, every filter with paging, every required body
// field left out; the fuzz phase's requests are the same for the same seed; a reproducer is a curl
// command a shell reads back exactly, with the token as "$VARIABLE". No server: generation is kept
// apart from sending and judging.

import { execFileSync } from "node:child_process";
import { operationById, type ParameterFact, platformFactsOf, requireParameter } from "@platform-api/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { listFilters } from "../src/facts/list-facts.js";
import { requestExample, requestSchemaPointer, requiredOf, schemaAt, specModel } from "../src/facts/spec.js";
import { requestArbitrary } from "../src/fuzz/generate/arbitraries.js";
import { coverageCases } from "../src/fuzz/generate/coverage.js";
import { MAX_QUERY_LENGTH, VERY_LARGE } from "../src/fuzz/generate/values.js";
import { curlOf, newRequest } from "../src/fuzz/request.js";
import type { FuzzRequest } from "../src/shared/finding.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
let n = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
const baseOf = (operationId: string): FuzzRequest => {
  const operation = operationById(model, operationId);
  const params = Object.fromEntries(
    operation.parameters.filter((p) => p.in === "path").map((p) => [p.name, "1"]),
  );
  const base = newRequest(operation, params, []);
  return operation.requestBody ? { ...base, body: requestExample(operation) } : base;
};
const casesOf = (operationId: string) =>
  coverageCases(operationById(model, operationId), baseOf(operationId), uuid);
/** The values each query parameter is sent with alone, over an operation's cases. */
const valuesSent = (cases: FuzzRequest[], name: string) =>
  new Set(cases.filter((c) => c.query.length === 1 && c.query[0]?.[0] === name).map((c) => c.query[0]?.[1]));

describe("the coverage phase", () => {
  it("sends an offset list's limit at both bounds and one past each, and a very large offset", () => {
    const regions = operationById(model, "listRegions");
    const limit = requireParameter(regions, "limit", "query");
    const offset = requireParameter(regions, "offset", "query");
    const sent = valuesSent(casesOf("listRegions"), limit.name);
    for (const v of [limit.minimum, (limit.minimum ?? 0) - 1, limit.maximum, (limit.maximum ?? 0) + 1])
      expect(sent.has(String(v)), String(v)).toBe(true);
    expect(valuesSent(casesOf("listRegions"), offset.name).has(String(VERY_LARGE))).toBe(true);
  });

  it("sends every enum value of every query parameter of every operation, and one outside it", () => {
    for (const operation of model.operations) {
      const cases = casesOf(operation.operationId);
      for (const parameter of operation.parameters.filter((p) => p.in === "query")) {
        const listed = (parameter.enum ?? parameter.items?.enum ?? []).map(String);
        const sent = valuesSent(cases, parameter.name);
        for (const value of listed)
          expect(sent.has(value), `${operation.operationId} ${parameter.name}=${value}`).toBe(true);
        if (listed.length > 0)
          expect([...sent].some((v) => v !== undefined && v !== "" && !listed.includes(v))).toBe(true);
      }
    }
  });

  it("combines every filter of a list with paging", () => {
    for (const operation of model.operations.filter((o) => o.pagination)) {
      const pagination = operation.pagination;
      if (!pagination) continue;
      const cases = coverageCases(operation, baseOf(operation.operationId), uuid);
      for (const filter of listFilters(operation)) {
        const combined = cases.filter(
          (c) =>
            c.query.some(([name]) => name === filter.parameter.name) &&
            c.query.some(([name]) => name === pagination.limitParam),
        );
        expect(combined.length, `${operation.operationId} ${filter.parameter.name}`).toBeGreaterThan(0);
      }
    }
  });

  it("sends the query parameters the platform documents beyond the spec, with the values it lists", () => {
    let sent = 0;
    for (const operation of model.operations) {
      const described = new Set(operation.parameters.map((p) => p.name));
      const facts = platformFactsOf(operation.operationId).filter(
        (f): f is ParameterFact => f.kind === "parameter" && f.in === "query" && !described.has(f.name),
      );
      const cases = casesOf(operation.operationId);
      for (const fact of facts) {
        const values = new Set(
          cases.filter((c) => c.query[0]?.[0] === fact.name).map((c) => c.query[0]?.[1]),
        );
        const listed = (
          (fact.schema.items as { enum?: unknown[] } | undefined)?.enum ??
          (fact.schema.enum as unknown[] | undefined) ??
          []
        ).map(String);
        for (const value of listed)
          expect(values.has(value), `${operation.operationId} ${fact.name}=${value}`).toBe(true);
        sent += values.size;
      }
    }
    // Not vacuous: the record documents such parameters (the task list's offset, state, order_by, …).
    expect(sent).toBeGreaterThan(5);
  });

  it("sends a list's platform-documented parameters with its smallest page (the spec's least limit)", () => {
    let paged = 0;
    for (const operation of model.operations.filter((o) => o.pagination)) {
      const described = new Set(operation.parameters.map((p) => p.name));
      const limit = requireParameter(operation, operation.pagination?.limitParam ?? "", "query");
      if (limit.minimum === undefined) continue;
      const names = platformFactsOf(operation.operationId)
        .filter((f) => f.kind === "parameter" && f.in === "query" && !described.has(f.name))
        .map((f) => (f as ParameterFact).name);
      const cases = casesOf(operation.operationId).filter((c) => names.includes(c.query[0]?.[0] ?? ""));
      // A page of 1,000 instances is ~700 KB; what these cases judge (schema, 5xx) needs one item.
      for (const c of cases)
        expect(c.query.slice(1), `${operation.operationId} ${c.query[0]?.[0]}`).toEqual([
          [limit.name, String(limit.minimum)],
        ]);
      paged += cases.length;
    }
    // Not vacuous: the instance list alone documents two dozen such parameters.
    expect(paged).toBeGreaterThan(20);
  });

  it("leaves each required body field out, and sends each field of the wrong type", () => {
    for (const operation of model.operations.filter((o) => o.requestBody)) {
      const cases = casesOf(operation.operationId);
      const pointer = requestSchemaPointer(operation);
      for (const name of requiredOf(schemaAt(pointer)))
        expect(cases.some((c) => typeof c.body === "object" && c.body !== null && !(name in c.body))).toBe(
          true,
        );
      for (const name of Object.keys(schemaAt(pointer, "properties") ?? {}))
        expect(
          cases.some((c) => {
            const value = (c.body as Record<string, unknown> | undefined)?.[name];
            return (
              value !== undefined && value !== (requestExample(operation) as Record<string, unknown>)?.[name]
            );
          }),
          `${operation.operationId}.${name}`,
        ).toBe(true);
    }
  });
});

describe("the fuzz phase", () => {
  it("gives the same requests for the same seed, and others for another", () => {
    for (const operationId of ["listAiTasks", "checkVirtualGpuClusterLimits"]) {
      const arbitrary = requestArbitrary(operationById(model, operationId), baseOf(operationId));
      const once = fc.sample(arbitrary, { seed: 42, numRuns: 30 });
      expect(fc.sample(arbitrary, { seed: 42, numRuns: 30 })).toEqual(once);
      expect(fc.sample(arbitrary, { seed: 43, numRuns: 30 })).not.toEqual(once);
    }
  });
});

describe("the length of what is sent", () => {
  it("no query of either phase is longer than what every server reads (MAX_QUERY_LENGTH)", () => {
    let longest = 0;
    for (const operation of model.operations) {
      const base = baseOf(operation.operationId);
      const sampled = fc.sample(requestArbitrary(operation, base), { seed: 1, numRuns: 200 });
      for (const request of [...casesOf(operation.operationId), ...sampled])
        longest = Math.max(longest, new URLSearchParams(request.query).toString().length);
    }
    expect(longest).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
    // Not vacuous: long values are sent, up to a good part of the bound.
    expect(longest).toBeGreaterThan(MAX_QUERY_LENGTH / 4);
  });
});

describe("a finding's reproducer", () => {
  it("is a curl command whose words a shell reads back exactly, the token as its variable", () => {
    const request: FuzzRequest = {
      ...baseOf("putStorageNotificationEvent"),
      query: [["client_id", 'it\'s $HOME `x` "q"']],
      body: { name: "it's $(echo no)" },
    };
    const curl = curlOf(request, "http://127.0.0.1:4020/", "GCORE_API_KEY");
    expect(curl).toContain(`-H "Authorization: ${tokenPrefix}$GCORE_API_KEY"`);
    // The shell expands the token variable and nothing else: every other word arrives as written.
    const words = execFileSync("sh", ["-c", curl.replace(/^curl /, "printf '%s\\n' ")], {
      env: { GCORE_API_KEY: "123$token", PATH: process.env.PATH ?? "" },
    })
      .toString()
      .split("\n");
    expect(words).toContain(`Authorization: ${tokenPrefix}123$token`);
    expect(words).toContain(JSON.stringify(request.body));
    const url = words.find((w) => w.startsWith("http://"));
    expect(new URL(url ?? "").searchParams.get("client_id")).toBe('it\'s $HOME `x` "q"');
  });
});
