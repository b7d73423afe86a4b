import { MODEL } from "@platform-api/spec/generated/model";
import { operationById, requireParameter } from "@platform-api/spec/model";
import { describe, expect, it } from "vitest";
import { createClient, paginate, ValidationError } from "../src/index.js";
import { KEY, scriptedServerForSuite } from "./scripted-server.js";

const server = scriptedServerForSuite(() => ({ body: { count: 0, results: [] } }));

// The bounds and enums below are the spec's; the wording around them is the client's.
const param = (operationId: string, name: string) =>
  requireParameter(operationById(MODEL, operationId), name, "query");
const regionsLimit = param("listRegions", "limit");
const LIMIT = `an integer from ${regionsLimit.minimum} to ${regionsLimit.maximum}`;
const MAX = regionsLimit.maximum ?? Number.NaN;
const oneOf = (values: readonly unknown[] | undefined) =>
  `one of ${(values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;

describe("the spec's path parameters", () => {
  // The client requires every path parameter without reading `required` (the runtime model leaves
  // it out), as OpenAPI makes a path parameter required always; the description must agree.
  it("are all required", () => {
    const optional = MODEL.operations.flatMap((o) =>
      o.parameters.filter((p) => p.in === "path" && !p.required).map((p) => `${o.operationId} ${p.name}`),
    );
    expect(optional).toEqual([]);
  });
});

describe("parameters are checked against the spec before sending", () => {
  const cases: [string, () => Promise<unknown>, string, unknown, string][] = [];
  const client = () => createClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false });
  cases.push(
    [
      "limit above the maximum",
      () => client().GET("/cloud/v1/regions", { params: { query: { limit: MAX + 1 } } }),
      "limit",
      MAX + 1,
      LIMIT,
    ],
    [
      "limit above the maximum, through openapi-fetch's request()",
      () => client().request("get", "/cloud/v1/regions", { params: { query: { limit: MAX + 1 } } }),
      "limit",
      MAX + 1,
      LIMIT,
    ],
    [
      "limit below the minimum",
      () =>
        client().GET("/cloud/v1/regions", {
          params: { query: { limit: (regionsLimit.minimum ?? Number.NaN) - 1 } },
        }),
      "limit",
      (regionsLimit.minimum ?? Number.NaN) - 1,
      LIMIT,
    ],
    [
      "a negative offset",
      () => client().GET("/cloud/v1/regions", { params: { query: { offset: -1 } } }),
      "offset",
      -1,
      `an integer of at least ${param("listRegions", "offset").minimum}`,
    ],
    [
      "page 0",
      () => client().GET("/streaming/ai/tasks", { params: { query: { page: 0 } } }),
      "page",
      0,
      `an integer of at least ${param("listAiTasks", "page").minimum}`,
    ],
    [
      "an unknown task state",
      () => client().GET("/cloud/v1/tasks", { params: { query: { state: "DONE" as never } } }),
      "state",
      "DONE",
      oneOf(param("listTasks", "state").enum),
    ],
    [
      "an unknown task state among several",
      () => client().GET("/cloud/v1/tasks", { params: { query: { state: ["FINISHED", "DONE" as never] } } }),
      "state",
      "DONE",
      oneOf(param("listTasks", "state").enum),
    ],
    [
      "an unknown quota request status",
      () =>
        client().GET("/cloud/reseller/v1/limits_request", {
          params: { query: { status: ["done", "pending" as never] } },
        }),
      "status",
      "pending",
      oneOf(param("listQuotaLimitRequests", "status").items?.enum),
    ],
    [
      "a fractional limit",
      () => paginate(client(), "/cloud/v1/regions", { params: { query: { limit: 2.5 } } }).toArray(),
      "limit",
      2.5,
      LIMIT,
    ],
    [
      "a project id that is not an integer",
      () =>
        client().GET("/cloud/v1/instances/{project_id}/{region_id}", {
          params: { path: { project_id: "1" as never, region_id: 76 } },
        }),
      "project_id",
      "1",
      "an integer",
    ],
  );

  it.each(cases)(
    "refuses %s with a ValidationError naming it, and sends nothing",
    async (_name, call, parameter, value, allowed) => {
      const before = server.requests.length;
      const error = (await call().catch((e) => e)) as ValidationError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ parameter, value, allowed });
      expect(error.message).toContain(
        `parameter ${parameter}=${JSON.stringify(value)} is not allowed; expected ${allowed}.`,
      );
      expect(server.requests.length).toBe(before);
    },
  );

  it("sends parameters within bounds", async () => {
    const { response } = await createClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false }).GET(
      "/cloud/v1/regions",
      {
        params: { query: { limit: MAX, offset: 0 } },
      },
    );
    expect(response.status).toBe(200);
  });

  it("sends a repeatable filter given several values as the key once per value", async () => {
    // The merged spec's `state`: one value (the seed) or several (the platform's description).
    const states = (param("listTasks", "state").enum ?? []).slice(-2) as ("FINISHED" | "ERROR")[];
    expect(param("listTasks", "state").repeatable).toBe(true);
    const before = server.requests.length;
    const { response } = await createClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false }).GET(
      "/cloud/v1/tasks",
      { params: { query: { state: states } } },
    );
    expect(response.status).toBe(200);
    const sent = new URL(server.requests[before]?.url ?? "", server.url).searchParams.getAll("state");
    expect(sent).toEqual(states);
    expect(states).toHaveLength(2);
  });

  it("can be turned off", async () => {
    const loose = createClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false, validateParams: false });
    const { response } = await loose.GET("/cloud/v1/regions", { params: { query: { limit: MAX + 1 } } });
    expect(response.status).toBe(200);
  });
});
