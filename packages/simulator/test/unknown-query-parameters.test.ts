// A query parameter the spec does not list for the operation is refused, naming it and the ones the
// operation takes, so a client that misspells a filter (`?stat=FINISHED`) learns it at once instead
// of silently getting the unfiltered list: 400, or 404 where the operation documents no 400. An
// operation that documents neither has no answer that could refuse it, so there it is ignored.
// Names and statuses are read from the spec model.

import { documentsStatus, loadModel, operationById } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSimulator, type TestSimulator } from "./harness.js";

const model = loadModel();
const queryNames = (operationId: string) =>
  operationById(model, operationId)
    .parameters.filter((p) => p.in === "query")
    .map((p) => p.name);

let t: TestSimulator;
beforeAll(async () => {
  t = await createTestSimulator();
});
afterAll(() => t.close());

describe("query parameters the spec does not list", () => {
  it("GET /cloud/v1/tasks?foo=bar is a 400 naming foo and the parameters listTasks takes", async () => {
    const answer = await t.call("GET", "/cloud/v1/tasks", { query: { foo: "bar" } });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('Query parameter "foo"');
    const allowed = queryNames("listTasks");
    expect(allowed.length).toBeGreaterThan(0);
    for (const name of allowed) expect(answer.body.message).toContain(name);
  });

  it("names every unknown parameter, next to a valid one", async () => {
    const [known] = queryNames("listRegions");
    const answer = await t.call("GET", "/cloud/v1/regions", {
      query: { [known as string]: 1, stat: "x", ofset: 2 },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain('"stat"');
    expect(answer.body.message).toContain('"ofset"');
  });

  it("says an operation takes none, answering 404 where the operation documents no 400", async () => {
    const getTask = operationById(model, "getTask");
    expect(queryNames("getTask")).toEqual([]);
    expect(documentsStatus(getTask, 400)).toBe(false);
    expect(documentsStatus(getTask, 404)).toBe(true);
    const task = String((await t.call("GET", "/cloud/v1/tasks")).body.results[0]?.id);
    const answer = await t.call("GET", `/cloud/v1/tasks/${task}`, { query: { limit: 1 } });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toMatch(/Query parameter "limit".*getTask .*takes no query parameters/);
  });

  it("ignores them where the operation documents neither 400 nor 404, staying on-spec", async () => {
    const listProjects = operationById(model, "listProjects");
    expect(documentsStatus(listProjects, 400) || documentsStatus(listProjects, 404)).toBe(false);
    const answer = await t.call("GET", "/cloud/v1/projects", { query: { limit: 1 } });
    expect(answer.status).toBe(200);
  });

  it("checks the token first", async () => {
    const answer = await t.call("GET", "/cloud/v1/tasks", { token: null, query: { foo: "bar" } });
    expect(answer.status).toBe(401);
  });

  it("still takes every listed parameter", async () => {
    const answer = await t.call("GET", "/cloud/v1/tasks", { query: { limit: 1 } });
    expect(answer.status).toBe(200);
  });
});
