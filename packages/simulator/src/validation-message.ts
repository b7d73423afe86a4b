// Turns Ajv's errors about a request into one sentence that names the parameter or body field,
// what was wrong, and what is allowed.

import type { OperationModel, ParameterModel, ValueFacts } from "@platform-api/spec";
import { LIMITS } from "./limits.js";

export type RequestPart = "params" | "querystring" | "body" | "headers";

/** One of Ajv's errors as Fastify passes it on (`data` is there: the route Ajvs are verbose). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  data?: unknown;
}

/** The operation's parameters (their facts from the spec model) say what is allowed. */
export function describeValidationErrors(
  errors: readonly ValidationIssue[],
  part: RequestPart,
  operation: OperationModel | undefined,
): string {
  const sentences = new Set<string>();
  const unlisted: string[] = [];
  for (const error of errors) {
    if (part !== "body" && error.keyword === "additionalProperties" && error.instancePath === "")
      unlisted.push(String(error.params.additionalProperty));
    else sentences.add(describeOne(error, part, operation));
  }
  if (unlisted.length > 0)
    sentences.add(unlistedParameters(unlisted, part === "params" ? "path" : "query", operation));
  return [...sentences].join(" ");
}

function describeOne(
  error: ValidationIssue,
  part: RequestPart,
  operation: OperationModel | undefined,
): string {
  const segments = error.instancePath.split("/").slice(1).map(unescapePointer);
  if (error.keyword === "required") segments.push(String(error.params.missingProperty));
  const [first = "", ...rest] = segments;

  if (part === "body") {
    const where = segments.length === 0 ? "The request body" : `Body field "${fieldPath(segments)}"`;
    if (error.keyword === "required") return `${where} is required.`;
    if (error.keyword === "additionalProperties") {
      const extra = String(error.params.additionalProperty);
      return `${where} has "${extra}", which is not an allowed field.`;
    }
    return `${where} ${message(error)}.`;
  }

  const where: ParameterModel["in"] = part === "params" ? "path" : "query";
  const kind = part === "params" ? "Path parameter" : "Query parameter";
  const name = `${kind} "${first}"${rest.length > 0 ? ` (item ${rest.join(".")})` : ""}`;
  if (error.keyword === "required") return `${name} is required.`;
  const restates = error.keyword === "enum" || error.keyword === "format";
  const parameter = operation?.parameters.find((p) => p.in === where && p.name === first);
  const allowed = parameter && !restates ? describeSchema(parameter) : undefined;
  return `${name} ${message(error)}.${allowed ? ` Allowed: ${allowed}.` : ""}`;
}

/** Parameters the spec does not list for the operation, and the ones it does. */
function unlistedParameters(
  names: readonly string[],
  where: ParameterModel["in"],
  operation: OperationModel | undefined,
): string {
  const kind = where === "path" ? "Path parameter" : "Query parameter";
  const given =
    names.length === 1
      ? `${kind} ${quote(names[0])} is`
      : `${kind}s ${names.map((n) => quote(n)).join(", ")} are`;
  const listed = operation?.parameters.filter((p) => p.in === where).map((p) => p.name) ?? [];
  const takes = operation
    ? `${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`
    : "it";
  return listed.length === 0
    ? `${given} not in the spec: ${takes} takes no ${where} parameters.`
    : `${given} not in the spec: ${takes} takes ${listed.join(", ")}.`;
}

function message(error: ValidationIssue): string {
  const got = error.data === undefined || typeof error.data === "object" ? "" : ` (got ${quote(error.data)})`;
  if (error.keyword === "enum")
    return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}${got}`;
  if (error.keyword === "format")
    return `must be a ${error.params.format === "uuid" ? "UUID" : error.params.format}${got}`;
  return `${error.message ?? "is not valid"}${got}`;
}

/** "an integer from 1 to 1000", "one of done, in progress, rejected", "a UUID". */
export function describeSchema(schema: ValueFacts): string | undefined {
  if (schema.type === "array" && schema.items) {
    const item = describeSchema(schema.items);
    return item ? `repeat the parameter, each value ${item}` : undefined;
  }
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(", ")}`;
  if (schema.type === "integer" || schema.type === "number") {
    const noun = schema.type === "integer" ? "an integer" : "a number";
    const min = schema.minimum;
    const max = schema.maximum;
    if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`;
    if (min !== undefined) return `${noun} of at least ${min}`;
    if (max !== undefined) return `${noun} of at most ${max}`;
    return noun;
  }
  if (schema.type === "string")
    return schema.format === "uuid" ? "a UUID" : schema.format ? `a ${schema.format} string` : "a string";
  return undefined;
}

/** "fields[0].field_value": a body field by its path segments, indices in brackets. */
export function fieldPath(segments: readonly string[]): string {
  return segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), "");
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** A value as JSON, cut to LIMITS.quotedValue characters: an error names a value, never echoes a large one. */
export function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value) ? "[…]" : typeof value === "object" ? "{…}" : String(value);
  }
  return text.length > LIMITS.quotedValue ? `${text.slice(0, LIMITS.quotedValue)}…` : text;
}
