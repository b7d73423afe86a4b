// The task list as the platform's own clients call it (issue #29): where the seed is silent, the
// simulator takes the query parameters the platform's published descriptions document
// (spec/platform-facts.yaml) and honours them: offset paging, repeated state, selection by project
// and region, the order, the creation-time window. The platform's SDK pages this list with offset
// and sends state once per value; refused with 400, it could not list tasks at all.
import { type ParameterFact, platformFactsOf } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestSimulator, type TaskList, type TestSimulator } from "./harness.js";

const PATH = "/cloud/v1/tasks";
const documented = platformFactsOf("listTasks").filter((f): f is ParameterFact => f.kind === "parameter");
/** A query parameter the platform documents for the task list; the test fails if the record drops it. */
function param(name: string): ParameterFact {
  const fact = documented.find((f) => f.name === name && f.in === "query");
  if (!fact) throw new Error(`spec/platform-facts.yaml documents no query parameter ${name} for listTasks`);
  return fact;
}

let t: TestSimulator;
let all: TaskList["results"];
let place: { project: number; region: number; otherRegion: number };
let created: string;

beforeAll(async () => {
  t = await createTestSimulator();
  const projects = await t.call("GET", "/cloud/v1/projects");
  const regions = await t.call("GET", "/cloud/v1/regions");
  const project = projects.body.results.find((p) => p.is_default)?.id;
  const active = regions.body.results.filter((r) => r.state === "ACTIVE").map((r) => r.id);
  const [region, otherRegion] = active;
  if (project === undefined || region === undefined || otherRegion === undefined)
    throw new Error("the default world has no default project or fewer than two active regions");
  place = { project, region, otherRegion };
  const volume = await t.call("POST", `/cloud/v1/volumes/${project}/${region}`, {
    body: { name: "platform-task-list", size: 1, source: "new-volume" },
  });
  expect(volume.status).toBe(200);
  created = String(volume.body.tasks[0]);
  const listed = await t.call("GET", PATH);
  all = (listed.body as TaskList).results;
});
afterAll(() => t?.close());

const list = async (query: Record<string, string | number | (string | number)[]>) => {
  const answer = await t.call("GET", PATH, { query });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as TaskList;
};
const ids = (tasks: TaskList["results"]) => tasks.map((task) => task.id);
const createdOn = (task: TaskList["results"][number]) => String(task.created_on);

describe("the task list takes what the platform documents beyond the seed", () => {
  it("pages with offset and limit, counting every task", async () => {
    expect(all.length).toBeGreaterThanOrEqual(4);
    const page = await list({ [param("offset").name]: 1, limit: 2 });
    expect(page.count).toBe(all.length);
    expect(ids(page.results)).toEqual(ids(all.slice(1, 3)));
  });

  it("selects by state sent once per value, and by one state as the seed describes", async () => {
    const fact = param("state");
    expect(fact.repeatable).toBe(true);
    const present: string[] = [...new Set(all.map((task) => String(task.state)))];
    expect(present.length).toBeGreaterThanOrEqual(2);
    const both = await list({ state: present.slice(0, 2) });
    expect(ids(both.results)).toEqual(
      ids(all.filter((task) => present.slice(0, 2).includes(String(task.state)))),
    );
    const one = await list({ state: present[0] as string });
    expect(ids(one.results)).toEqual(ids(all.filter((task) => task.state === present[0])));
  });

  it("refuses a repeated state outside the spec's states, naming the parameter", async () => {
    const answer = await t.call("GET", PATH, { query: { state: [String(all[0]?.state), "SOMEDAY"] } });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain("state");
  });

  it("selects by project and region, each repeatable", async () => {
    expect(param("project_id").repeatable && param("region_id").repeatable).toBe(true);
    const here = await list({ project_id: [place.project], region_id: [place.region, place.otherRegion] });
    expect(ids(here.results)).toContain(created);
    const elsewhere = await list({ project_id: place.project, region_id: place.otherRegion });
    expect(ids(elsewhere.results)).not.toContain(created);
    expect(elsewhere.count).toBe(elsewhere.results.length);
  });

  it("orders by creation time: order_by, else the deprecated sorting; newest first by default", async () => {
    expect(param("order_by").schema.default).toBe("desc");
    expect(param("sorting").deprecated).toBe(true);
    const newestFirst = ids(all);
    expect(all.map((task) => task.created_on)).toEqual(
      all
        .map((task) => task.created_on)
        .sort()
        .reverse(),
    );
    expect(ids((await list({ order_by: "asc" })).results)).toEqual([...newestFirst].reverse());
    expect(ids((await list({ sorting: "asc" })).results)).toEqual([...newestFirst].reverse());
    expect(ids((await list({ order_by: "desc", sorting: "asc" })).results)).toEqual(newestFirst);
  });

  it("keeps the tasks created within from_timestamp and to_timestamp (inclusive; date-times with a zone offset)", async () => {
    const sorted = [...all].sort((a, b) => createdOn(a).localeCompare(createdOn(b)));
    const [, second, third] = sorted;
    if (!second || !third) throw new Error("fewer than three tasks");
    const window = await list({
      // created_on is written without an offset, in UTC; the parameters are RFC 3339 date-times.
      [param("from_timestamp").name]: `${second.created_on}Z`,
      [param("to_timestamp").name]: `${third.created_on}+00:00`,
    });
    expect(ids(window.results).sort()).toEqual(
      ids(
        sorted.filter((task) => createdOn(task) >= createdOn(second) && createdOn(task) <= createdOn(third)),
      ).sort(),
    );
  });

  it("accepts is_acknowledged (the simulator's tasks have no acknowledgement to select by)", async () => {
    expect(param("is_acknowledged").schema.type).toBe("boolean");
    expect((await list({ is_acknowledged: "false" })).count).toBe(all.length);
    expect((await t.call("GET", PATH, { query: { is_acknowledged: "maybe" } })).status).toBe(400);
  });
});
