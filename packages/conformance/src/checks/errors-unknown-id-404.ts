// Every read operation that documents 404 answers it for a resource that does not exist: each path
// parameter in turn given a value no resource has (the others the run's own).

import type { OperationModel, ParameterModel } from "@platform-api/spec";
import { check } from "../check.js";
import { callOf, operationNeeds, runPathValues } from "../operations.js";
import type { Check } from "./types.js";

const pathParameters = (operation: OperationModel) => operation.parameters.filter((p) => p.in === "path");

/** A value of the parameter's type that no resource has (within the parameter's bounds). */
function unknownValue(p: ParameterModel): string | number {
  if (p.type === "integer") return Math.min(p.maximum ?? Number.POSITIVE_INFINITY, 987_654_321);
  return p.format === "uuid" ? crypto.randomUUID() : `conformance-unknown-${crypto.randomUUID()}`;
}

export const errorsUnknownId404: Check = {
  id: "errors.unknown-id-404",
  severity: "must",
  appliesTo: "every read (GET) operation with path parameters that documents 404",
  applies: (operation) =>
    operation.method === "get" &&
    pathParameters(operation).length > 0 &&
    operation.responses.some((r) => r.status === "404"),
  title: (operation) =>
    `${operation.operationId} answers 404 for a ${pathParameters(operation)
      .map((p) => p.name)
      .join(" or a ")} that does not exist`,
  needs: (operation) => [...operationNeeds(operation), "state"],
  calls: (operation) =>
    pathParameters(operation).map((p) => `GET ${operation.path} with an unknown ${p.name}`),
  async run(api, operation) {
    const wrong: string[] = [];
    for (const parameter of pathParameters(operation)) {
      const call = callOf(operation, {
        ...runPathValues(api.run),
        [parameter.name]: unknownValue(parameter),
      });
      if (!("request" in call)) return api.skip(`no value for ${call.missing.join(", ")}`);
      const answer = await api.http.send(call.request);
      if (answer.status !== 404)
        wrong.push(`an unknown ${parameter.name}: ${answer.url} answered ${answer.status}; expected 404`);
    }
    check(wrong.length === 0, wrong.join("; "));
  },
};
