// Every answer of the run judged against the spec (src/judge.ts), reported per operation: the
// discovery's, every scenario's and every check's, bursts and refusals included. `schema` fails on
// what breaks what the seed states (an undocumented status or content type, a body off its schema
// with the spec's inferences optional); `schema.inferred` (a `should`) on what breaks only an
// inference (x-inferred-required). Both run after every other scenario, with the operation's own
// probe calls first (src/probes.ts).

import type { OperationModel } from "@platform-api/spec";
import { check } from "../check.js";
import type { Evidence, RecordedExchange } from "../context.js";
import { exchangesOf } from "../exchanges.js";
import { PROBES } from "../probes.js";
import { type ScenarioApi, unmetNeed } from "../scenario.js";
import { answersCarryInferences } from "../spec.js";
import type { Check } from "./types.js";

const SHOWN = 10;
const CITED = 20;

/** Every answer of the operation so far: the discovery's, then the scenarios'. */
function answersOf(api: ScenarioApi, operation: OperationModel): RecordedExchange[] {
  const { operationId } = operation;
  return [
    ...api.run.discovery.judged.filter((e) => e.operationId === operationId),
    ...exchangesOf(operationId),
  ];
}

/** One answer of each status and call, as evidence of what was judged. */
function sample(exchanges: RecordedExchange[]): Evidence[] {
  const seen = new Map<string, Evidence>();
  for (const e of exchanges)
    seen.set(`${e.evidence.status} ${e.evidence.method} ${e.evidence.path.split("?")[0]}`, e.evidence);
  return [...seen.values()].slice(0, 5);
}

async function judge(api: ScenarioApi, operation: OperationModel, kind: "must" | "should") {
  const exchanges = answersOf(api, operation);
  if (exchanges.length === 0)
    return api.skip(
      `no answer of ${operation.operationId} in this run (the scenarios that call it were skipped)`,
    );
  const failing = exchanges.filter((e) => e[kind].length > 0);
  api.cite(...(failing.length > 0 ? failing.slice(0, CITED).map((e) => e.evidence) : sample(exchanges)));
  const problems = failing.flatMap((e) => e[kind].map((p) => `${p} (called by ${e.by})`));
  check(
    failing.length === 0,
    `${failing.length} of ${exchanges.length} answers of ${operation.operationId} break ${
      kind === "must" ? "the spec" : "what the spec infers (x-inferred-required)"
    }:\n${problems.slice(0, SHOWN).join("\n")}${problems.length > SHOWN ? `\n… and ${problems.length - SHOWN} more` : ""}`,
  );
}

export const schema: Check = {
  id: "schema",
  severity: "must",
  appliesTo: "every operation (every answer of the run, after the other scenarios)",
  applies: () => true,
  title: (operation) =>
    `every answer of ${operation.operationId} has a documented status and content type, and a body valid against the spec`,
  needs: () => [],
  calls: (operation) => [
    ...(PROBES[operation.operationId]?.calls ?? []),
    `(every answer of ${operation.operationId} in the run)`,
  ],
  async run(api, operation) {
    const probe = PROBES[operation.operationId];
    if (probe && !unmetNeed(probe.needs, api.run)) await probe.run(api.http, api.run);
    await judge(api, operation, "must");
  },
};

export const schemaInferred: Check = {
  id: "schema.inferred",
  severity: "should",
  appliesTo: "every operation whose answers' schemas list x-inferred-required fields",
  applies: (operation) => answersCarryInferences(operation),
  title: (operation) => `every answer of ${operation.operationId} has the fields the spec infers as required`,
  needs: () => [],
  calls: (operation) => [`(every answer of ${operation.operationId} in the run)`],
  run: (api, operation) => judge(api, operation, "should"),
};
