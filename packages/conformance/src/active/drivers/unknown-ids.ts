// Every read that documents 404, each path parameter in turn given a value no resource has (the
// others the run's own), marked as such for the judge (errors.unknown-id-404).

import type { OperationModel, ParameterModel } from "@platform-api/spec";
import { callOf, operationNeeds } from "../../facts/operations.js";
import { runPathValues } from "../run-values.js";
import type { Driver } from "./types.js";

const pathParameters = (operation: OperationModel) => operation.parameters.filter((p) => p.in === "path");

/** A value of the parameter's type that no resource has (within the parameter's bounds). */
function unknownValue(p: ParameterModel): string | number {
  if (p.type === "integer") return Math.min(p.maximum ?? Number.POSITIVE_INFINITY, 987_654_321);
  return p.format === "uuid" ? crypto.randomUUID() : `conformance-unknown-${crypto.randomUUID()}`;
}

export const unknownIds: Driver = {
  id: "unknown-ids",
  feeds: ["errors.unknown-id-404"],
  appliesTo: "every read (GET) operation with path parameters that documents 404",
  applies: (operation) =>
    operation.method === "get" &&
    pathParameters(operation).length > 0 &&
    operation.responses.some((r) => r.status === "404"),
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) =>
    pathParameters(operation).map((p) => `GET ${operation.path} with an unknown ${p.name}`),
  async drive({ http, run, skip }, operation) {
    for (const parameter of pathParameters(operation)) {
      const call = callOf(operation, {
        ...runPathValues(run, operation),
        [parameter.name]: unknownValue(parameter),
      });
      if (!("request" in call)) return skip(`no value for ${call.missing.join(", ")}`);
      await http.send({ ...call.request, unknownParameter: parameter.name });
    }
  },
};
