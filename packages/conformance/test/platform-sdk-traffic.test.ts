// Traffic shaped like the platform's own SDK (issue #29), through `observe` to the simulator: the
// calls its clients make where the seed is silent, with the parameters and values the platform's
// published descriptions document (spec/platform-facts.yaml) and the SDK's habits (a list parameter
// sent once per value, the task list paged by offset until it has every task, a floating IP asked
// on a subnet interface). Every call must be answered as the platform would (2xx), and the judge
// must raise no false alarm.

import {
  type FieldFact,
  operationById,
  type ParameterFact,
  type PlatformFact,
  platformFactsOf,
} from "@platform-api/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { requestExample, specModel } from "../src/facts/spec.js";
import type { Report } from "../src/shared/results.js";
import { startSdkSession } from "./sdk-session.js";

const model = specModel();
const listTasks = operationById(model, "listTasks");
const checkLimits = operationById(model, "checkVirtualGpuClusterLimits");

function fact<K extends PlatformFact["kind"]>(
  operationId: string,
  kind: K,
  test: (f: Extract<PlatformFact, { kind: K }>) => boolean,
): Extract<PlatformFact, { kind: K }> {
  const found = platformFactsOf(operationId).find(
    (f): f is Extract<PlatformFact, { kind: K }> =>
      f.kind === kind && test(f as Extract<PlatformFact, { kind: K }>),
  );
  if (!found) throw new Error(`spec/platform-facts.yaml has no such ${kind} fact of ${operationId}`);
  return found;
}
const taskParam = (name: string) => fact("listTasks", "parameter", (f: ParameterFact) => f.name === name);
const interfaceField = (field: string) =>
  fact(
    "checkVirtualGpuClusterLimits",
    "field",
    (f: FieldFact) => f.field === `servers_settings.interfaces[].${field}`,
  );
const enumOf = (f: ParameterFact | FieldFact): string[] => {
  const schema = f.schema as { enum?: unknown[]; items?: { enum?: unknown[] } };
  return (schema.enum ?? schema.items?.enum ?? []).map(String);
};

let report: Report;
const statuses: string[] = [];
let pagedTasks = 0;
let listedCount = 0;

beforeAll(async () => {
  const session = await startSdkSession(0.01);
  const { send } = session;
  try {
    const { project, region } = await session.place();

    // The task list as the SDK pages it: offset moves by what came back, until every task is seen.
    const limit = 2;
    const states = enumOf(taskParam("state"));
    let offset = 0;
    for (let page = 0; page < 50; page++) {
      const answer = await send({
        method: "GET",
        path: listTasks.path,
        query: [
          [taskParam("limit").name, String(limit)],
          [taskParam("offset").name, String(offset)],
          ...states.map((s): [string, string] => [taskParam("state").name, s]),
          [taskParam("project_id").name, String(project)],
          [taskParam("region_id").name, String(region)],
          [taskParam("order_by").name, enumOf(taskParam("order_by"))[0] as string],
        ],
      });
      const results = (answer.body.results ?? []) as unknown[];
      listedCount = Number(answer.body.count);
      pagedTasks += results.length;
      offset += results.length;
      if (results.length === 0 || offset >= listedCount) break;
    }
    await send({
      method: "GET",
      path: listTasks.path,
      query: [
        [taskParam("from_timestamp").name, "2026-01-01T00:00:00Z"],
        [taskParam("to_timestamp").name, "2030-01-01T00:00:00+00:00"],
        [taskParam("is_acknowledged").name, "false"],
        [taskParam("sorting").name, enumOf(taskParam("sorting"))[0] as string],
      ],
    });
    // A cluster check as the SDK builds it: a subnet interface asking for a new floating IP.
    const subnet = enumOf(interfaceField("type")).find((t) => t === "subnet");
    if (!subnet) throw new Error("the record lists no subnet interface type");
    await send({
      method: "POST",
      path: checkLimits.path.replace("{project_id}", String(project)).replace("{region_id}", String(region)),
      body: {
        // The spec's own example flavor, which the simulator's world has.
        flavor: requestExample(checkLimits)?.flavor,
        servers_count: 2,
        servers_settings: {
          interfaces: [
            {
              type: subnet,
              network_id: "0b7f6a8e-59a5-4c3e-9d6e-1f2a3b4c5d6e",
              subnet_id: "6d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a",
              floating_ip: { source: enumOf(interfaceField("floating_ip.source"))[0] },
            },
          ],
        },
      },
    });
    report = await session.report("sdk-shaped");
    statuses.push(...session.statuses);
  } finally {
    await session.close();
  }
}, 120_000);

describe("traffic shaped like the platform's SDK, through observe to the simulator", () => {
  it("is answered as the platform would: every call 2xx, the task list paged to its end", () => {
    expect(statuses.filter((s) => !/→ 2\d\d$/.test(s))).toEqual([]);
    expect(listedCount).toBeGreaterThan(2);
    expect(pagedTasks).toBe(listedCount);
  });

  it("raises no false alarm, and judged the calls", () => {
    const alarms = report.scenarios.filter((s) => s.status === "failed" || s.status === "warned");
    expect(alarms.map((s) => `${s.id}: ${s.reason}`)).toEqual([]);
    const passed = report.scenarios.filter((s) => s.status === "passed").map((s) => s.id);
    expect(passed).toEqual(
      expect.arrayContaining([`schema.${listTasks.operationId}`, `schema.${checkLimits.operationId}`]),
    );
  });
});
