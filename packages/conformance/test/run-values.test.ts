// The run's path values (src/active/run-values.ts) come from the fixture registry's sources: the
// discovery's for a place, a list's answered items for an id the list gives. Exchanges are fed in
// as the suite's HTTP layer feeds them; nothing is sent.

import { FIXTURES, type Fixtures, listItemsField, operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { noteExchange, runPathValues } from "../src/active/run-values.js";
import { callOf, operationNeeds } from "../src/facts/operations.js";
import { needsCreated, sourceKey, valuesOfExchange } from "../src/facts/path-values.js";
import { specModel } from "../src/facts/spec.js";
import type { RunContext } from "../src/shared/context.js";
import type { ObservedExchange } from "../src/shared/exchange.js";

const model = specModel();
const runOf = (discovered: RunContext["discovered"]) =>
  ({ discovered, discovery: { steps: [], exchanges: [] } }) as unknown as RunContext;
const answer = (method: string, path: string, status: number, body: unknown): ObservedExchange => ({
  method,
  url: path,
  requestHeaders: {},
  status,
  responseHeaders: { "content-type": "application/json" },
  body: JSON.stringify(body),
  at: 0,
  durationMs: 1,
});

/** Every operation with a path parameter whose value a list gives, with that list. */
const listed = model.operations.flatMap((operation) =>
  Object.entries(FIXTURES[operation.operationId as keyof typeof FIXTURES].path).flatMap(([name, { from }]) =>
    "list" in from ? [{ operation, name, from, list: operationById(model, from.list) }] : [],
  ),
);

describe("the run's path values", () => {
  it("gives a place from the discovery, and the needs of a path say so", () => {
    const placed = model.operations.filter((o) => o.parameters.some((p) => p.name === "project_id"));
    expect(placed.length).toBeGreaterThan(0);
    const run = runOf({ projectId: 7, regionId: 76 });
    for (const operation of placed) {
      expect(runPathValues(run, operation)).toMatchObject({ project_id: 7, region_id: 76 });
      expect(operationNeeds(operation)).toEqual(expect.arrayContaining(["project", "region"]));
    }
    expect(runPathValues(runOf({}), placed[0] as (typeof placed)[number])).toEqual({});
  });

  it("gives an id a list answered, once it answered it with a success", () => {
    expect(listed.length).toBeGreaterThan(0);
    for (const { operation, name, from, list } of listed) {
      const run = runOf({ projectId: 7, regionId: 76 });
      expect(runPathValues(run, operation)[name]).toBeUndefined();
      expect("missing" in callOf(operation, runPathValues(run, operation))).toBe(true);
      const items = listItemsField(model, from) ?? "";
      noteExchange(run, answer("GET", list.path, 500, { [items]: [{ [from.field]: "refused" }] }));
      expect(runPathValues(run, operation)[name]).toBeUndefined();
      noteExchange(
        run,
        answer("GET", `${list.path}?limit=1`, 200, { [items]: [{ [from.field]: "first" }, {}] }),
      );
      expect(runPathValues(run, operation)[name]).toBe("first");
      expect("request" in callOf(operation, runPathValues(run, operation))).toBe(true);
    }
  });

  // No operation of the spec takes an id from a created resource yet (getVolume would): a registry
  // made up here gives one operation's id that source, and the facts the run reads are judged.
  it("gives an id a create's finished task named, and asks for writes (a registry made up here)", () => {
    const create = model.operations.find((o) => o.asyncTask?.createdResourcesKey);
    const operation = model.operations.find(
      (o) => o.method === "get" && o.parameters.some((p) => p.in === "path" && p.name === "id"),
    );
    if (!create?.asyncTask || !operation)
      throw new Error("the spec has no create with a task, or no read by id");
    const fixtures = {
      ...FIXTURES,
      [operation.operationId]: {
        path: { id: { from: { created: create.operationId }, world: "volumes" } },
      },
    } as Fixtures;
    const from = { created: create.operationId };
    expect(needsCreated(operation, fixtures)).toBe(true);
    expect(needsCreated(operation)).toBe(false);
    const key = create.asyncTask.createdResourcesKey ?? "";
    const poll = operationById(model, create.asyncTask.pollOperationId ?? "");
    // The create's own answer names tasks, not what they make; only the finished task's poll does.
    expect(
      valuesOfExchange(
        answer(create.method.toUpperCase(), create.path, 200, { [key]: ["not-yet"] }),
        fixtures,
      ),
    ).toEqual([]);
    expect(
      valuesOfExchange(answer("GET", poll.path, 200, { created_resources: { [key]: ["made"] } }), fixtures),
    ).toEqual([[sourceKey(from), ["made"]]]);
    // The spec's own registry takes nothing from that answer for a created source.
    expect(
      valuesOfExchange(answer("GET", poll.path, 200, { created_resources: { [key]: ["made"] } })).filter(
        ([k]) => k.startsWith("created "),
      ),
    ).toEqual([]);
  });
});
