// Path and query parameters typed integer, read strictly. The route validator coerces strings
// with JavaScript's number rules, which take "0x1F", "0b11", "1e400" (Infinity) and " " (0) as
// integers; the platform's integers are decimal digits, so those are refused before coercion.

import type { FastifyRequest } from "fastify";
import { ApiError } from "./errors.js";
import { SAFE_INTEGER } from "./limits.js";
import { documents, type SpecOperation } from "./operations.js";
import { describeSchema, quote } from "./validation-message.js";

const DECIMAL = /^-?\d+$/;

type Schema = Parameters<typeof describeSchema>[0];

const isInteger = (schema: Schema | undefined): boolean =>
  schema?.type === "integer" || (schema?.type === "array" && schema.items?.type === "integer");

/** A preValidation hook for the operation, or undefined when it has no integer parameter. */
export function integerParameterCheck(operation: SpecOperation) {
  const parts = [
    {
      kind: "Path parameter",
      source: "params",
      names: Object.keys(operation.schema.params?.properties ?? {}),
    },
    {
      kind: "Query parameter",
      source: "query",
      names: Object.keys(operation.schema.querystring?.properties ?? {}),
    },
  ] as const;
  const checked = parts
    .map((part) => ({ ...part, names: part.names.filter((n) => isInteger(operation.parameterSchemas[n])) }))
    .filter((part) => part.names.length > 0);
  if (checked.length === 0) return undefined;
  // An operation that documents no 400 names no such resource instead, as for other bad parameters.
  const status = documents(operation, 400) ? 400 : 404;

  return async (request: FastifyRequest) => {
    for (const { kind, source, names } of checked) {
      const values = request[source] as Record<string, unknown>;
      for (const name of names) {
        const raw = values[name];
        if (raw === undefined) continue;
        for (const value of Array.isArray(raw) ? raw : [raw]) {
          const text = String(value);
          if (DECIMAL.test(text) && Math.abs(Number(text)) <= SAFE_INTEGER) continue;
          const allowed = describeSchema(operation.parameterSchemas[name] ?? {});
          throw new ApiError(
            status,
            `${kind} "${name}" must be an integer in decimal digits (got ${quote(text)}).${allowed ? ` Allowed: ${allowed}.` : ""}`,
          );
        }
      }
    }
  };
}
