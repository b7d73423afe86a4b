// Planted defects of the kinds fuzz exists to find (issue #30), each behind a request no
// hand-written scenario sends: a 5xx behind a valid boundary value, behind a valid but unusual
// string, behind a date-time with a zone offset; a value out of its bounds accepted; a documented
// value refused. Spread over four operations and five parameters; each names the one result fuzz
// must fail for it. Which request a defect touches is found through the spec model.

import { matchOperation, operationById, requireParameter } from "@platform-api/spec";
import { requestSchemaPointer, schemaAt, specModel } from "../src/facts/spec.js";
import { isRecord } from "../src/shared/json.js";
import type { Defect, Exchange } from "./faulty-target.js";

const model = specModel();
const operationOf = (ex: Exchange) => matchOperation(model, ex.method, ex.path)?.operation.operationId;
const regionsLimit = requireParameter(operationById(model, "listRegions"), "limit", "query");
const quotaStatus = requireParameter(operationById(model, "listQuotaLimitRequests"), "status", "query");
/** The value of a repeated parameter with a space in it: the kind a server's parser splits wrongly. */
const spaced = (quotaStatus.items?.enum ?? []).map(String).find((v) => v.includes(" "));
if (spaced === undefined) throw new Error("listQuotaLimitRequests' status lists no value with a space.");
const managementTypes: unknown[] = [
  undefined,
  ...((schemaAt(
    requestSchemaPointer(operationById(model, "updateProtectionProfile")),
    "properties",
    "management_type",
  )?.enum as unknown[] | undefined) ?? []),
];

const serverError = {
  status: 500,
  headers: { "content-type": "application/json" },
  body: { detail: "internal error" },
};

export interface FuzzDefect extends Defect {
  /** The operation fuzz is pointed at (--only), and the one result it must fail. */
  operation: string;
  finding: string;
  writes?: boolean;
}

export const fuzzDefects = (): FuzzDefect[] => [
  {
    name: "a 500 behind the regions list's largest page (a valid boundary value)",
    fails: [],
    operation: "listRegions",
    finding: "fuzz.no-server-error.listRegions",
    request: (ex) =>
      operationOf(ex) === "listRegions" && ex.query.get(regionsLimit.name) === String(regionsLimit.maximum)
        ? serverError
        : undefined,
  },
  {
    name: "a 500 behind a task type that is not ASCII (a valid but unusual string)",
    fails: [],
    operation: "listTasks",
    finding: "fuzz.no-server-error.listTasks",
    request: (ex) =>
      operationOf(ex) === "listTasks" &&
      [...(ex.query.get("task_type") ?? "")].some((c) => (c.codePointAt(0) ?? 0) > 0x7f)
        ? serverError
        : undefined,
  },
  {
    name: "a 500 behind a creation date with a zone offset (a valid but unusual date-time)",
    fails: [],
    operation: "listAiTasks",
    finding: "fuzz.no-server-error.listAiTasks",
    request: (ex) =>
      operationOf(ex) === "listAiTasks" && /[+-]\d\d:\d\d$/.test(ex.query.get("date_created") ?? "")
        ? serverError
        : undefined,
  },
  {
    // A write fuzz can put back (the profile is read first): fuzz never sends a PUT it cannot.
    name: "a protection profile's management type outside the enum accepted (out of bounds)",
    fails: [],
    operation: "updateProtectionProfile",
    finding: "fuzz.forbidden-body-refused.updateProtectionProfile",
    writes: true,
    request: (ex) => {
      if (operationOf(ex) !== "updateProtectionProfile" || !isRecord(ex.body)) return undefined;
      // Whatever the type, the profile is taken: a server that stopped checking it (and drops it).
      if (!managementTypes.includes(ex.body.management_type)) delete ex.body.management_type;
      return undefined;
    },
  },
  {
    name: `the quota limit requests' status "${spaced}" refused (a documented value)`,
    fails: [],
    operation: "listQuotaLimitRequests",
    finding: "fuzz.allowed-accepted.listQuotaLimitRequests",
    request: (ex) =>
      operationOf(ex) === "listQuotaLimitRequests" && ex.query.getAll(quotaStatus.name).includes(spaced)
        ? {
            status: 400,
            headers: { "content-type": "application/json" },
            body: { detail: `${quotaStatus.name}: "${spaced}" is not a valid choice` },
          }
        : undefined,
  },
];
