// Calls made only so that their answers are judged (src/active/probe-calls.ts): the task list, refusals of a
// body without a required field or with a wrongly typed one.

import { PROBES } from "../probe-calls.js";
import type { Driver } from "./types.js";

export const probes: Driver = {
  id: "probes",
  feeds: ["schema"],
  appliesTo: "the operations no other call reaches with every answer worth judging",
  applies: (operation) => PROBES[operation.operationId] !== undefined,
  needs: (operation) => PROBES[operation.operationId]?.needs ?? [],
  calls: (operation) => PROBES[operation.operationId]?.calls ?? [],
  drive: async ({ http, run }, operation) => PROBES[operation.operationId]?.run(http, run),
};
