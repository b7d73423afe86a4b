import { ValidationError } from "./errors.js";
import { PARAMETERS } from "./generated/conventions.js";

interface ParamSchema {
  type?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  enum?: readonly unknown[];
  items?: ParamSchema;
}

interface ParamSpec {
  name: string;
  in: string;
  required: boolean;
  schema: ParamSchema;
}

// Looked up on every call, so indexed once: method → path → the parameters worth checking.
const SPECS = new Map<string, Map<string, readonly ParamSpec[]>>();
for (const [operation, specs] of Object.entries(
  PARAMETERS as unknown as Record<string, readonly ParamSpec[]>,
)) {
  const space = operation.indexOf(" ");
  const method = operation.slice(0, space);
  const byPath = SPECS.get(method) ?? new Map<string, readonly ParamSpec[]>();
  byPath.set(operation.slice(space + 1), specs);
  SPECS.set(method, byPath);
}

function allowedText(schema: ParamSchema): string {
  if (schema.enum) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const kind =
    schema.type === "integer" ? "an integer" : schema.type === "number" ? "a number" : `a ${schema.type}`;
  if (schema.minimum !== undefined && schema.maximum !== undefined)
    return `${kind} from ${schema.minimum} to ${schema.maximum}`;
  if (schema.minimum !== undefined) return `${kind} of at least ${schema.minimum}`;
  if (schema.maximum !== undefined) return `${kind} of at most ${schema.maximum}`;
  return kind;
}

function checkValue(method: string, path: string, name: string, value: unknown, schema: ParamSchema): void {
  const fail = (allowedSchema: ParamSchema = schema): never => {
    const allowed = allowedText(allowedSchema);
    throw new ValidationError(
      `${method} ${path}: parameter ${name}=${JSON.stringify(value)} is not allowed; expected ${allowed}.`,
      name,
      value,
      allowed,
    );
  };
  if (schema.type === "array") {
    if (!Array.isArray(value)) fail();
    for (const item of value as unknown[]) checkValue(method, path, name, item, schema.items ?? {});
    return;
  }
  if (schema.type === "integer" && !(typeof value === "number" && Number.isInteger(value))) fail();
  if (schema.type === "string" && typeof value !== "string") fail();
  if (schema.type === "boolean" && typeof value !== "boolean") fail();
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
export function validateParams(method: string, path: string, params: RequestParams | undefined): void {
  const specs = SPECS.get(method)?.get(path);
  if (!specs || specs.length === 0) return;
  for (const spec of specs) {
    const source = spec.in === "query" ? params?.query : spec.in === "path" ? params?.path : undefined;
    const value = source?.[spec.name];
    if (value === undefined) {
      if (spec.required && spec.in === "path") {
        throw new ValidationError(
          `${method} ${path}: path parameter ${spec.name} is required (${allowedText(spec.schema)}).`,
          spec.name,
          value,
          allowedText(spec.schema),
        );
      }
      continue;
    }
    checkValue(method, path, spec.name, value, spec.schema);
  }
}
