// The route of each operation of the model: its path in the router's syntax and the schemas Fastify
// validates the request with. Parameter schemas are the description's own (copied with their
// `$ref`s made absolute, so Ajv fills in their defaults); the body is checked by reference to its
// schema in the description. Nothing here restates a schema.
//
// Where the seed is silent, what the platform's own published descriptions document is taken too
// (spec/platform-facts.yaml): its clients send it. A query parameter the description does not list
// but the platform documents is accepted with the platform's schema; one the description lists and
// the platform documents as repeatable (`state=ERROR&state=FINISHED`) is accepted once or repeated.
// A fact never narrows what the description allows.

import {
  absoluteRefs,
  type OperationModel,
  type ParameterFact,
  type PlatformFact,
  platformFactsOf,
  resolvePointer,
  specRef,
} from "@platform-api/spec";
import { refusalStatus } from "./errors.js";
import type { OpenApiDocument } from "./spec.js";

type JsonSchema = { readonly [keyword: string]: unknown };

export interface RouteSchemas {
  params?: JsonSchema;
  /** A query parameter the operation does not list is refused, where the operation can refuse. */
  querystring?: JsonSchema;
  body?: JsonSchema;
}

export interface Route {
  operation: OperationModel;
  /** "/cloud/v1/tasks/:task_id" for "/cloud/v1/tasks/{task_id}". */
  url: string;
  schema: RouteSchemas;
}

export function routeOf(
  doc: OpenApiDocument,
  operation: OperationModel,
  facts: readonly PlatformFact[] = platformFactsOf(operation.operationId),
): Route {
  const group = (where: "path" | "query", closed: boolean): JsonSchema | undefined => {
    const own = operation.parameters.filter((p) => p.in === where);
    const documented = facts.filter(
      (f): f is ParameterFact => f.kind === "parameter" && f.in === where && f.seed === "silent",
    );
    if (own.length === 0 && documented.length === 0 && !closed) return undefined;
    const properties: Record<string, JsonSchema> = {};
    for (const p of own) {
      const schema = resolvePointer<JsonSchema>(doc, p.schemaPointer);
      if (!schema) throw new Error(`${operation.operationId}: ${p.schemaPointer} names no schema.`);
      const described = absoluteRefs(schema);
      const repeatable = documented.some((f) => f.name === p.name && f.repeatable);
      properties[p.name] = repeatable
        ? { anyOf: [described, { type: "array", items: described, minItems: 1 }] }
        : described;
    }
    for (const fact of documented)
      if (!own.some((p) => p.name === fact.name)) properties[fact.name] = fact.schema as JsonSchema;
    return {
      type: "object",
      properties,
      required: own.filter((p) => p.required).map((p) => p.name),
      ...(closed ? { additionalProperties: false } : {}),
    };
  };
  const body = operation.requestBody?.content.find(
    (m) => m.contentType === "application/json",
  )?.schemaPointer;
  const params = group("path", false);
  const querystring = group("query", refusalStatus(operation) !== undefined);
  return {
    operation,
    url: operation.path.replace(/\{([^}]+)\}/g, ":$1"),
    // The router warns about a schema part given as undefined, so absent parts are left out.
    schema: {
      ...(params ? { params } : {}),
      ...(querystring ? { querystring } : {}),
      ...(body ? { body: { $ref: specRef(body) } } : {}),
    },
  };
}
