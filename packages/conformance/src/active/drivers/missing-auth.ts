// Every read without an Authorization header (auth.missing-header). Writes are left out: a server
// that wrongly accepted one would create or change something.

import type { ParameterModel } from "@platform-api/spec";
import { callOf } from "../../facts/operations.js";
import { runPathValues } from "../run-values.js";
import type { Driver } from "./types.js";

/** A value of the parameter's type: the answer is 401 before any resource is looked up. */
const anyValue = (p: ParameterModel): string | number =>
  p.format === "uuid" ? crypto.randomUUID() : p.type === "integer" ? 1 : "conformance";

export const missingAuth: Driver = {
  id: "missing-auth",
  feeds: ["auth.missing-header"],
  appliesTo: "every read (GET) operation",
  applies: (operation) => operation.method === "get",
  // Any value of the right type will do for the path: the run's own are not needed.
  needs: () => [],
  calls: (operation) => [`GET ${operation.path} without Authorization`],
  async drive({ http, run, skip }, operation) {
    const values = Object.fromEntries(
      operation.parameters.filter((p) => p.in === "path").map((p) => [p.name, anyValue(p)]),
    );
    const call = callOf(operation, { ...values, ...runPathValues(run, operation) }, "none");
    if (!("request" in call)) return skip(`no value for ${call.missing.join(", ")}`);
    await http.send(call.request);
  },
};
