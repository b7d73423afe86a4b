// Turns Ajv's errors about a request into one sentence that names the parameter or body field,
// what was wrong, and what is allowed.

import type { ErrorObject } from "ajv";
import { LIMITS } from "./limits.js";

export type RequestPart = "params" | "querystring" | "body" | "headers";

type Schema = Record<string, any>;

/**
 * @param schemas resolved schemas of the path and query parameters by name, to say what is allowed.
 */
export function describeValidationErrors(
  errors: ErrorObject[],
  part: RequestPart,
  schemas: Record<string, Schema>,
): string {
  const seen = new Set<string>();
  const sentences: string[] = [];
  for (const error of errors) {
    const sentence = describeOne(error, part, schemas);
    if (!seen.has(sentence)) sentences.push(sentence);
    seen.add(sentence);
  }
  return sentences.join(" ");
}

function describeOne(error: ErrorObject, part: RequestPart, schemas: Record<string, Schema>): string {
  const segments = error.instancePath.split("/").slice(1).map(unescapePointer);
  if (error.keyword === "required") segments.push(String(error.params.missingProperty));
  const [first = "", ...rest] = segments;

  if (part === "body") {
    const where = segments.length === 0 ? "The request body" : `Body field "${fieldPath(segments)}"`;
    if (error.keyword === "required") return `${where} is required.`;
    if (error.keyword === "additionalProperties") {
      const extra = String(error.params.additionalProperty);
      return `${where === "The request body" ? "The request body" : where} has "${extra}", which is not an allowed field.`;
    }
    return `${where} ${message(error)}.`;
  }

  const kind = part === "params" ? "Path parameter" : "Query parameter";
  const where = `${kind} "${first}"${rest.length > 0 ? ` (item ${rest.join(".")})` : ""}`;
  if (error.keyword === "required") return `${where} is required.`;
  const restates = error.keyword === "enum" || error.keyword === "format";
  const allowed = schemas[first] && !restates ? describeSchema(schemas[first]) : undefined;
  return `${where} ${message(error)}.${allowed ? ` Allowed: ${allowed}.` : ""}`;
}

function message(error: ErrorObject): string {
  const got = error.data === undefined || typeof error.data === "object" ? "" : ` (got ${quote(error.data)})`;
  if (error.keyword === "enum")
    return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}${got}`;
  if (error.keyword === "format")
    return `must be a ${error.params.format === "uuid" ? "UUID" : error.params.format}${got}`;
  return `${error.message ?? "is not valid"}${got}`;
}

/** "an integer from 1 to 1000", "one of done, in progress, rejected", "a UUID". */
export function describeSchema(schema: Schema): string | undefined {
  if (schema.type === "array" && schema.items) {
    const item = describeSchema(schema.items);
    return item ? `repeat the parameter, each value ${item}` : undefined;
  }
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(", ")}`;
  if (schema.type === "integer" || schema.type === "number") {
    const noun = schema.type === "integer" ? "an integer" : "a number";
    const min =
      schema.minimum ?? (schema.exclusiveMinimum === undefined ? undefined : schema.exclusiveMinimum + 1);
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
