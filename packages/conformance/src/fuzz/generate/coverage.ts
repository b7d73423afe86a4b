// The coverage phase: for each operation, the request it starts from, then each query parameter
// at each of its coverage values (src/fuzz/generate/values.ts), every filter of a list combined
// with paging, each path parameter with a value of the wrong type, and, for an operation with a
// body, each top-level field at each of its values, each required field left out, and an empty
// body. All read from the spec model: an operation, parameter or bound the spec adds is covered with
// no new code.

import {
  type OperationModel,
  type ParameterFact,
  platformFactsOf,
  type ValueFacts,
} from "@platform-api/spec";
import { listFilters } from "../../facts/list-facts.js";
import { requestSchemaPointer, requiredOf, schemaAt } from "../../facts/spec.js";
import type { FuzzRequest } from "../../shared/finding.js";
import { bodyValues, coverageValues, DATE_TIMES, VERY_LARGE } from "./values.js";

/** A value of the wrong type is no unknown id: a server may refuse it with 400 rather than 404. */
function withoutUnknown(request: FuzzRequest, name: string): FuzzRequest {
  if (request.unknownParameter !== name) return request;
  const { unknownParameter: _gone, ...rest } = request;
  return rest;
}

const withQuery = (base: FuzzRequest, query: [string, string][]): FuzzRequest => ({ ...base, query });

export function coverageCases(
  operation: OperationModel,
  base: FuzzRequest,
  uuid: () => string,
): FuzzRequest[] {
  const cases: FuzzRequest[] = [base];
  const query = operation.parameters.filter((p) => p.in === "query");
  for (const parameter of query) {
    if (parameter.type === "array" && parameter.items) {
      const values = coverageValues(parameter.items, uuid());
      for (const value of values) cases.push(withQuery(base, [[parameter.name, value]]));
      const listed = (parameter.items.enum ?? []).map(String);
      if (listed.length > 1)
        cases.push(
          withQuery(
            base,
            listed.map((v) => [parameter.name, v]),
          ),
        );
    } else
      for (const value of coverageValues(parameter, uuid()))
        cases.push(withQuery(base, [[parameter.name, value]]));
  }
  cases.push(...platformParameterCases(operation, base));
  const p = operation.pagination;
  if (p) {
    const { limitParam } = p;
    const position: [string, string] = p.style === "offset" ? [p.offsetParam, "1"] : [p.pageParam, "2"];
    if (p.style === "offset") cases.push(withQuery(base, [[p.offsetParam, String(VERY_LARGE)]]));
    for (const filter of listFilters(operation)) {
      const facts: ValueFacts = filter.parameter.items ?? filter.parameter;
      const value = (facts.enum ?? [])[0] ?? filter.parameter.example;
      if (value === undefined) continue;
      cases.push(
        withQuery(base, [
          [filter.parameter.name, String(value)],
          [limitParam, "1"],
        ]),
      );
      cases.push(withQuery(base, [[filter.parameter.name, String(value)], [limitParam, "1"], position]));
    }
  }
  for (const parameter of operation.parameters.filter((x) => x.in === "path")) {
    const wrong =
      parameter.type === "integer" ? "abc" : parameter.format === "uuid" ? "not-a-uuid" : undefined;
    if (wrong !== undefined)
      cases.push(
        withoutUnknown(
          {
            ...base,
            params: { ...base.params, [parameter.name]: wrong },
            fromRun: base.fromRun.filter((n) => n !== parameter.name),
          },
          parameter.name,
        ),
      );
    if (parameter.format === "uuid")
      cases.push({
        ...base,
        params: { ...base.params, [parameter.name]: (base.params[parameter.name] ?? uuid()).toUpperCase() },
      });
  }
  if (operation.requestBody && base.body !== undefined) cases.push(...bodyCases(operation, base));
  return cases;
}

/**
 * The query parameters the platform's own descriptions document beyond the spec
 * (spec/platform-facts.yaml: what the platform's SDKs send), each with the values the platform
 * lists for it (its enum, default, bounds, a boolean's two, a date-time). The spec does not
 * describe them, so only the answer's schema and a 5xx are judged: a target that serves the
 * platform's clients takes them.
 */
function platformParameterCases(operation: OperationModel, base: FuzzRequest): FuzzRequest[] {
  const described = new Set(operation.parameters.map((p) => p.name));
  const facts = platformFactsOf(operation.operationId).filter(
    (f): f is ParameterFact => f.kind === "parameter" && f.in === "query" && !described.has(f.name),
  );
  const smallest = smallestPage(operation);
  return facts.flatMap((fact) => {
    const schema = fact.schema as ValueFacts & { exclusiveMinimum?: number };
    const facts = schema.items ?? schema;
    const values = [
      ...(facts.enum ?? []),
      schema.default,
      facts.minimum,
      facts.maximum,
      ...(facts.type === "boolean" ? [true, false] : []),
      ...(facts.format === "date-time" ? [DATE_TIMES[0]] : []),
    ].filter((v) => v !== undefined);
    const paged = smallest && smallest[0] !== fact.name ? [smallest] : [];
    return [...new Set(values.map(String))].map((value) => ({
      ...base,
      query: [[fact.name, value], ...paged] as [string, string][],
    }));
  });
}

/**
 * A list's smallest page (its limit parameter at the spec's minimum): only the answer's schema and
 * a 5xx are judged of a platform parameter's case, and a full page of the instance list is ~700 KB.
 */
function smallestPage(operation: OperationModel): [string, string] | undefined {
  const name = operation.pagination?.limitParam;
  const minimum = operation.parameters.find((p) => p.in === "query" && p.name === name)?.minimum;
  return name === undefined || minimum === undefined ? undefined : [name, String(minimum)];
}

function bodyCases(operation: OperationModel, base: FuzzRequest): FuzzRequest[] {
  const pointer = requestSchemaPointer(operation);
  const properties = schemaAt(pointer, "properties") ?? {};
  const example =
    typeof base.body === "object" && base.body !== null ? (base.body as Record<string, unknown>) : {};
  const cases: FuzzRequest[] = [];
  for (const name of Object.keys(properties)) {
    const facts = schemaAt(pointer, "properties", name) as ValueFacts | undefined;
    for (const value of bodyValues(facts ?? {})) cases.push({ ...base, body: { ...example, [name]: value } });
  }
  for (const name of requiredOf(schemaAt(pointer))) {
    const { [name]: _left, ...rest } = example;
    cases.push({ ...base, body: rest });
  }
  cases.push({ ...base, body: {} });
  return cases;
}
