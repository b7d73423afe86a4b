// Path and query parameters typed integer, read strictly. The route validator coerces strings
// with JavaScript's number rules, which take "0x1F", "0b11", "1e400" (Infinity) and " " (0) as
// integers; the platform's integers are decimal digits, so those are refused before coercion.

import type { OperationModel, ParameterModel } from "@platform-api/spec";
import type { FastifyRequest } from "fastify";
import { ApiError, refusalStatus } from "./errors.js";
import { SAFE_INTEGER } from "./limits.js";
import { describeSchema, quote } from "./validation-message.js";

const DECIMAL = /^-?\d+$/;

const isInteger = (p: ParameterModel): boolean =>
  p.type === "integer" || (p.type === "array" && p.items?.type === "integer");

const PARTS = [
  { where: "path", kind: "Path parameter", source: "params" },
  { where: "query", kind: "Query parameter", source: "query" },
] as const;

/** A preValidation hook for the operation, or undefined when it has no integer parameter. */
export function integerParameterCheck(operation: OperationModel) {
  const checked = PARTS.map((part) => ({
    ...part,
    parameters: operation.parameters.filter((p) => p.in === part.where && isInteger(p)),
  })).filter((part) => part.parameters.length > 0);
  if (checked.length === 0) return undefined;
  const status = refusalStatus(operation) ?? 400;

  return async (request: FastifyRequest) => {
    for (const { kind, source, parameters } of checked) {
      const values = request[source] as Record<string, unknown>;
      for (const parameter of parameters) {
        const raw = values[parameter.name];
        if (raw === undefined) continue;
        for (const value of Array.isArray(raw) ? raw : [raw]) {
          const text = String(value);
          if (DECIMAL.test(text) && Math.abs(Number(text)) <= SAFE_INTEGER) continue;
          const allowed = describeSchema(parameter);
          throw new ApiError(
            status,
            `${kind} "${parameter.name}" must be an integer in decimal digits (got ${quote(text)}).${allowed ? ` Allowed: ${allowed}.` : ""}`,
          );
        }
      }
    }
  };
}
