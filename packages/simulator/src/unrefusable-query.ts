// An operation that documents neither 400 nor 404 (listProjects) has no answer that could refuse a
// query parameter, so a value that breaks its schema is dropped, as if not sent, instead of being
// answered with a status the operation does not document (an unknown parameter is ignored there
// too, route-schemas.ts). Runs before the integer check and the route's validation.

import type { createSpecAjv } from "@platform-api/spec";
import { absoluteRefs, type OperationModel, resolvePointer } from "@platform-api/spec";
import type { FastifyRequest } from "fastify";
import { refusalStatus } from "./errors.js";
import { SAFE_INTEGER } from "./limits.js";

const DECIMAL = /^-?\d+$/;

/** The hook for an operation that cannot refuse, or undefined where it can (or takes no query). */
export function unrefusableQueryFilter(
  doc: object,
  operation: OperationModel,
  ajv: ReturnType<typeof createSpecAjv>,
) {
  const parameters = operation.parameters.filter((p) => p.in === "query");
  if (refusalStatus(operation) !== undefined || parameters.length === 0) return undefined;
  const checks = parameters.map((p) => {
    const schema = absoluteRefs(resolvePointer(doc, p.schemaPointer) ?? {});
    const validate = ajv.compile({ type: "object", properties: { [p.name]: schema } });
    const integer = p.type === "integer" || (p.type === "array" && p.items?.type === "integer");
    return { name: p.name, validate, integer };
  });
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    for (const { name, validate, integer } of checks) {
      if (query[name] === undefined) continue;
      const texts = [query[name]].flat().map(String);
      // A copy: the validator coerces in place.
      const fits =
        (!integer || texts.every((t) => DECIMAL.test(t) && Math.abs(Number(t)) <= SAFE_INTEGER)) &&
        validate({ [name]: structuredClone(query[name]) });
      if (!fits) delete query[name];
    }
  };
}
