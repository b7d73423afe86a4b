// The route of each operation of the model: its path in the router's syntax and the schemas Fastify
// validates the request with. Parameter schemas are the description's own (copied with their
// `$ref`s made absolute, so Ajv fills in their defaults); the body is checked by reference to its
// schema in the description. Nothing here restates a schema.
//
// The served description is the merged one (the seed with the platform's published facts entered
// where it is silent), so what the platform's clients send (a repeated `state`, `offset` on the task
// list) is in it already: the routes follow the description alone.

import { absoluteRefs, type OperationModel, resolvePointer, specRef } from "@platform-api/spec";
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

export function routeOf(doc: OpenApiDocument, operation: OperationModel): Route {
  const group = (where: "path" | "query", closed: boolean): JsonSchema | undefined => {
    const own = operation.parameters.filter((p) => p.in === where);
    if (own.length === 0 && !closed) return undefined;
    const properties: Record<string, JsonSchema> = {};
    for (const p of own) {
      const schema = resolvePointer<JsonSchema>(doc, p.schemaPointer);
      if (!schema) throw new Error(`${operation.operationId}: ${p.schemaPointer} names no schema.`);
      properties[p.name] = absoluteRefs(schema);
    }
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
