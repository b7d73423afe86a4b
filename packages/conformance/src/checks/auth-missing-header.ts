// Every read operation answers 401 without an Authorization header: the seed's rule for every call.
// Writes are left out: a server that wrongly accepted one would create or change something.

import type { ParameterModel } from "@platform-api/spec";
import { check } from "../check.js";
import { callOf, runPathValues } from "../operations.js";
import type { Check } from "./types.js";

/** A value of the parameter's type: the answer is 401 before any resource is looked up. */
const anyValue = (p: ParameterModel): string | number =>
  p.format === "uuid" ? crypto.randomUUID() : p.type === "integer" ? 1 : "conformance";

export const authMissingHeader: Check = {
  id: "auth.missing-header",
  severity: "must",
  appliesTo: "every read (GET) operation",
  applies: (operation) => operation.method === "get",
  title: (operation) => `${operation.operationId} answers 401 without an Authorization header`,
  // Any value of the right type will do for the path: the run's own are not needed.
  needs: () => [],
  calls: (operation) => [`GET ${operation.path} without Authorization`],
  async run(api, operation) {
    const values = Object.fromEntries(
      operation.parameters.filter((p) => p.in === "path").map((p) => [p.name, anyValue(p)]),
    );
    const call = callOf(operation, { ...values, ...runPathValues(api.run) }, "none");
    if (!("request" in call)) return api.skip(`no value for ${call.missing.join(", ")}`);
    const answer = await api.http.send(call.request);
    check(
      answer.status === 401,
      `without Authorization, ${answer.url} answered ${answer.status}; expected 401`,
    );
  },
};
