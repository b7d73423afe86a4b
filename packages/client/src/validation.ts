import type { RuntimeParameter, ValueFacts } from "@platform-api/spec/model";
import { ValidationError } from "./errors.js";
import type { OperationFacts } from "./operations.js";

/** The value's JSON type, when the description gives one (`["string", "null"]` is a string). */
const typeOf = (schema: ValueFacts): string | undefined =>
  Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : (schema.type as string | undefined);

function allowedText(schema: ValueFacts): string {
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const type = typeOf(schema);
  const kind = type === "integer" ? "an integer" : type === "number" ? "a number" : `a ${type ?? "value"}`;
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    return `${kind} from ${schema.minimum} to ${schema.maximum}`;
  if (schema.minimum !== undefined) return `${kind} of at least ${schema.minimum}`;
  if (schema.maximum !== undefined) return `${kind} of at most ${schema.maximum}`;
  return kind;
}

function checkValue(method: string, path: string, name: string, value: unknown, schema: ValueFacts): void {
  const fail = (allowedSchema: ValueFacts = schema): never => {
    const allowed = allowedText(allowedSchema);
    throw new ValidationError(
      `${method} ${path}: parameter ${name}=${JSON.stringify(value)} is not allowed; expected ${allowed}.`,
      name,
      value,
      allowed,
    );
  };
  if (schema.repeatable && Array.isArray(value)) {
    const { repeatable, ...one } = schema;
    for (const item of value) checkValue(method, path, name, item, one);
    return;
  }
  const type = typeOf(schema);
  if (type === "array") {
    if (!Array.isArray(value)) fail();
    for (const item of value as unknown[]) checkValue(method, path, name, item, schema.items ?? {});
    return;
  }
  if (type === "integer" && !(typeof value === "number" && Number.isInteger(value))) fail();
  if (type === "string" && typeof value !== "string") fail();
  if (type === "boolean" && typeof value !== "boolean") fail();
  if (schema.enum && !schema.enum.includes(value)) fail();
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) fail();
    if (schema.maximum !== undefined && value > schema.maximum) fail();
  }
}

export interface RequestParams {
  query?: Record<string, unknown> | undefined;
  path?: Record<string, unknown> | undefined;
}

/**
 * Checks path and query parameters against the description's types, bounds and enums before a
 * request leaves, so `limit: 5000` is a ValidationError naming the parameter, not a 400 later.
 * Operations or parameters the description does not list are left to the type checker.
 */
export function validateParams(
  method: string,
  path: string,
  facts: OperationFacts | undefined,
  params: RequestParams | undefined,
): void {
  const specs: readonly RuntimeParameter[] | undefined = facts?.checked;
  if (!specs || specs.length === 0) return;
  for (const spec of specs) {
    const source = spec.in === "query" ? params?.query : spec.in === "path" ? params?.path : undefined;
    const value = source?.[spec.name];
    if (value === undefined) {
      // OpenAPI makes every path parameter required; query parameters are the server's to require.
      if (spec.in === "path") {
        throw new ValidationError(
          `${method} ${path}: path parameter ${spec.name} is required (${allowedText(spec)}).`,
          spec.name,
          value,
          allowedText(spec),
        );
      }
      continue;
    }
    checkValue(method, path, spec.name, value, spec);
  }
}
