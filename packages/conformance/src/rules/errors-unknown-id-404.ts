// A read that documents 404 answers it for a resource that does not exist. Judged where the request
// itself says the id is unknown: an active run's driver gives one path parameter a value no
// resource has (src/active/drivers/unknown-ids.ts). Traffic never says so, and the judge does not guess.

import type { OperationModel } from "@platform-api/spec";
import { operationNeeds } from "../facts/operations.js";
import { rule } from "./types.js";

const pathParameters = (operation: OperationModel) => operation.parameters.filter((p) => p.in === "path");

export const errorsUnknownId404 = rule({
  id: "errors.unknown-id-404",
  severity: "must",
  refuses: true,
  perOperation: true,
  appliesTo: "every read (GET) operation with path parameters that documents 404",
  judges: "every request for an id no resource has: answered 404",
  on: "answer",
  applies: (operation) =>
    operation.method === "get" &&
    pathParameters(operation).length > 0 &&
    operation.responses.some((r) => r.status === "404"),
  title: (operation) =>
    `${operation.operationId} answers 404 for a ${pathParameters(operation)
      .map((p) => p.name)
      .join(" or a ")} that does not exist`,
  needs: (operation) => [...operationNeeds(operation), "state"],
  judge: ({ exchange, answer }) => {
    const unknown = exchange.unknownParameter;
    if (unknown === undefined || exchange.retried) return undefined;
    return answer.status === 404
      ? null
      : `an unknown ${unknown}: ${answer.url} answered ${answer.status}; expected 404`;
  },
});
