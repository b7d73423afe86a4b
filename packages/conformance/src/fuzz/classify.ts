// What the spec says of a request, read from the spec alone (never from what the generator meant):
// each documented parameter's value and the body are allowed (valid against their schemas, and the
// spec leaves nothing about them open), forbidden (invalid against what the spec states), or open
// (valid, but the spec marks the parameter or a schema the body touches `x-unspecified`, or the
// parameter is one the spec does not describe). Fuzz's checks (src/fuzz/checks.ts) judge answers
// by it: what is forbidden must not be accepted, what is allowed must not be refused.

import type { OperationModel, ParameterModel } from "@platform-api/spec";
import { leftOpen } from "../facts/list-facts.js";
import { oncePerOperation } from "../facts/once-per-operation.js";
import { requestSchemaPointer, schemaAt, specValidator } from "../facts/spec.js";
import type { FuzzRequest } from "../shared/finding.js";

export type Standing = "allowed" | "forbidden" | "open";

export interface Classification {
  /** Where the request breaks what the spec states, one sentence each (empty: it breaks nothing). */
  forbidden: { where: "path" | "query" | "body"; problem: string }[];
  /** Whether nothing in it is left open by the spec: every parameter and the body allowed. */
  allowed: boolean;
  /**
   * The query and path parameters it sends whose values the spec allows for certain: a value its
   * enum lists, or a list's paging within its bounds. A free id or text is allowed by its type, but
   * a server may refuse one that names nothing (a client_id of no client), which the spec leaves open.
   */
  allowedNames: string[];
  /** The query parameters it sends whose values' effect the spec leaves open. */
  openNames: string[];
}

/**
 * A wire value as the parameter's schema reads it: an integer's digits as a number, a number's
 * decimal too, a boolean's word. Anything else stays text: "1.0", "1e3" or "+1" are no integer on the
 * wire, whatever JavaScript's Number makes of them (a Python or Go server refuses them).
 */
function typed(value: string, facts: Pick<ParameterModel, "type">): unknown {
  const types = Array.isArray(facts.type) ? facts.type : [facts.type];
  if (types.includes("integer") && /^-?\d+$/.test(value)) return Number(value);
  if (types.includes("number") && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (types.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  return value;
}

/**
 * An integer past 2^53 − 1 either way: the spec states no format (int32, int64), and no client
 * reads such a number exactly, so whether a server takes it is open.
 */
const pastExactIntegers = (value: unknown) =>
  typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value);

/**
 * An empty value (`?limit=`: many servers read it as no value at all), or an integer written
 * otherwise than in digits ("1e3", "1.0", "+1"): whether a server takes it is its parser's choice,
 * which the spec does not make.
 */
function emptyOrNumberLike(text: string, read: unknown, parameter: ParameterModel): boolean {
  if (text === "") return true;
  const facts = parameter.type === "array" ? (parameter.items ?? {}) : parameter;
  const types = Array.isArray(facts.type) ? facts.type : [facts.type];
  return (
    types.includes("integer") &&
    typeof read === "string" &&
    text.trim() !== "" &&
    Number.isInteger(Number(text))
  );
}

function parameterStanding(
  operation: OperationModel,
  parameter: ParameterModel,
  values: string[],
): { standing: Standing; problem?: string } {
  const many = parameter.type === "array";
  // One value of a parameter that takes one, sent twice: which one a server reads is not the spec's to say.
  if (!many && values.length > 1) return { standing: "open" };
  const value = many ? values.map((v) => typed(v, parameter.items ?? {})) : typed(values[0] ?? "", parameter);
  const each = Array.isArray(value) ? value : [value];
  const texts = many ? values : [values[0] ?? ""];
  if (each.some(pastExactIntegers) || texts.some((text, i) => emptyOrNumberLike(text, each[i], parameter)))
    return { standing: "open" };
  const errors = specValidator().validateSchema(parameter.schemaPointer, value);
  if (errors.length > 0)
    return {
      standing: "forbidden",
      problem: `${parameter.in} parameter ${parameter.name}=${JSON.stringify(values.length === 1 ? values[0] : values)}: ${errors.join("; ")}`,
    };
  return { standing: factsOf(operation, parameter).leftOpen ? "open" : "allowed" };
}

/**
 * A body as a lenient server reads it: a string of digits where the schema has an integer or a
 * number, a number or a boolean where it has a string, "true" or "false" where it has a boolean.
 */
function coerced(pointer: string, segments: string[], value: unknown): unknown {
  const node = schemaAt(pointer, ...segments);
  if (Array.isArray(value)) return value.map((item) => coerced(pointer, [...segments, "items"], item));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        coerced(pointer, [...segments, "properties", key], item),
      ]),
    );
  const type = node?.type;
  const types = Array.isArray(type) ? type : [type];
  if (
    typeof value === "string" &&
    (types.includes("integer") || types.includes("number")) &&
    /^-?\d+(\.\d+)?$/.test(value)
  )
    return Number(value);
  if (typeof value === "string" && types.includes("boolean") && (value === "true" || value === "false"))
    return value === "true";
  if ((typeof value === "number" || typeof value === "boolean") && types.includes("string"))
    return String(value);
  return value;
}

/** Whether the body touches a schema node the spec leaves open (x-unspecified). */
function touchesOpen(pointer: string, segments: string[], value: unknown): boolean {
  const node = schemaAt(pointer, ...segments);
  if (!node) return true;
  if (Array.isArray(node["x-unspecified"]) && node["x-unspecified"].length > 0) return true;
  if (Array.isArray(value)) return value.some((item) => touchesOpen(pointer, [...segments, "items"], item));
  if (typeof value === "object" && value !== null)
    return Object.entries(value).some(([key, item]) =>
      touchesOpen(pointer, [...segments, "properties", key], item),
    );
  return false;
}

/**
 * What the spec says of each of an operation's parameters whatever its value, read once per
 * operation: every request of a run asked it again, walking the operation's parameters in the
 * description.
 */
const parameterFacts = oncePerOperation(
  (operation) =>
    new Map(
      operation.parameters.map((parameter) => [
        parameter,
        {
          leftOpen: leftOpen(operation, parameter),
          enumeratedOrPaging: enumeratedOrPaging(operation, parameter),
        },
      ]),
    ),
);

function factsOf(operation: OperationModel, parameter: ParameterModel) {
  const facts = parameterFacts(operation).get(parameter);
  if (!facts) throw new Error(`${parameter.name} is not a parameter of ${operation.operationId}`);
  return facts;
}

/** Whether the spec lists the parameter's every value (an enum) or it pages a list. */
function enumeratedOrPaging(operation: OperationModel, parameter: ParameterModel): boolean {
  if ((parameter.enum ?? parameter.items?.enum ?? []).length > 0) return true;
  const p = operation.pagination;
  const paging = !p ? [] : p.style === "offset" ? [p.limitParam, p.offsetParam] : [p.limitParam, p.pageParam];
  return parameter.in === "query" && paging.includes(parameter.name);
}

export function classify(operation: OperationModel, request: FuzzRequest): Classification {
  const forbidden: Classification["forbidden"] = [];
  const allowedNames: string[] = [];
  const openNames: string[] = [];
  let allowed = true;
  for (const parameter of operation.parameters) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    const values =
      parameter.in === "path"
        ? request.params[parameter.name] === undefined
          ? []
          : [request.params[parameter.name] as string]
        : request.query.filter(([name]) => name === parameter.name).map(([, v]) => v);
    if (values.length === 0) continue;
    const { standing, problem } = parameterStanding(operation, parameter, values);
    if (standing === "forbidden") forbidden.push({ where: parameter.in, problem: problem ?? "" });
    if (standing !== "allowed") allowed = false;
    else if (factsOf(operation, parameter).enumeratedOrPaging) allowedNames.push(parameter.name);
    if (standing === "open") openNames.push(parameter.name);
  }
  const documented = new Set(operation.parameters.map((p) => p.name));
  if (request.query.some(([name]) => !documented.has(name))) allowed = false;
  if (operation.requestBody) {
    if (request.body === undefined) {
      if (operation.requestBody.required)
        forbidden.push({ where: "body", problem: "the required body is missing" });
      else allowed = false;
    } else {
      const pointer = requestSchemaPointer(operation);
      const errors = specValidator().validateSchema(pointer, request.body);
      // Valid once read as common servers read JSON ("1" for an integer, 1 for a string): whether
      // a server coerces is its choice (Django REST framework's fields do), which the seed leaves open.
      const lenient =
        errors.length > 0 &&
        specValidator().validateSchema(pointer, coerced(pointer, [], request.body)).length === 0;
      if (lenient) allowed = false;
      else if (errors.length > 0)
        forbidden.push({ where: "body", problem: `the body: ${errors.join("; ")}` });
      else if (touchesOpen(pointer, [], request.body)) allowed = false;
    }
  }
  return { forbidden, allowed: allowed && forbidden.length === 0, allowedNames, openNames };
}
