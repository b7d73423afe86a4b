// The spec's operations as the server mounts them: one route per operationId, with the path and
// query parameters and the body schema taken from the bundled spec (never re-declared here).

import { resolveRef } from "@platform-api/spec";
import { type OpenApiDocument, SPEC_ID } from "./spec.js";

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

type Schema = Record<string, any>;

export interface SpecOperation {
  operationId: string;
  method: Uppercase<(typeof METHODS)[number]>;
  /** The path template as in the spec ("/cloud/v1/tasks/{task_id}"). */
  path: string;
  /** The same path in the router's syntax ("/cloud/v1/tasks/:task_id"). */
  routePath: string;
  schemes: string[];
  /** Status codes the operation documents ("200", "2XX", …). */
  statuses: string[];
  /** Route schemas for the validator: params and querystring objects, body by reference. */
  schema: { params?: Schema; querystring?: Schema; body?: Schema };
  /** Resolved parameter schemas by name, to say what is allowed in error messages. */
  parameterSchemas: Record<string, Schema>;
}

export function operationsOf(doc: OpenApiDocument): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, rawItem] of Object.entries<any>(doc.paths ?? {})) {
    const item = resolve(doc, rawItem);
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      if (typeof operation.operationId !== "string")
        throw new Error(`${method.toUpperCase()} ${path} has no operationId.`);
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: any) =>
        resolve(doc, p),
      );
      const parameterSchemas: Record<string, Schema> = {};
      const group = (where: string) => {
        const own = parameters.filter((p: any) => p.in === where);
        if (own.length === 0) return undefined;
        const properties: Record<string, Schema> = {};
        for (const p of own) {
          properties[p.name] = absolute(p.schema ?? {});
          parameterSchemas[p.name] = resolve(doc, p.schema ?? {});
        }
        return {
          type: "object",
          properties,
          required: own.filter((p: any) => p.required).map((p: any) => p.name),
        };
      };
      const security: Record<string, unknown>[] = operation.security ?? doc.security ?? [];
      const body = operation.requestBody ? resolve(doc, operation.requestBody) : undefined;
      const bodySchema = body?.content?.["application/json"]?.schema;
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase() as SpecOperation["method"],
        path,
        routePath: path.replace(/\{([^}]+)\}/g, ":$1"),
        schemes: security.flatMap((s) => Object.keys(s)),
        statuses: Object.keys(operation.responses ?? {}),
        schema: definedOnly({
          params: group("path"),
          querystring: group("query"),
          body: bodySchema ? absolute(bodySchema) : undefined,
        }),
        parameterSchemas,
      });
    }
  }
  return operations;
}

/** Whether the operation documents a status (exactly or as a range such as 2XX). */
export function documents(operation: SpecOperation, status: number): boolean {
  return operation.statuses.includes(String(status)) || operation.statuses.includes(`${String(status)[0]}XX`);
}

/** The router warns about a schema part given as undefined, so leave such parts out. */
function definedOnly<T extends Record<string, unknown>>(parts: T): T {
  return Object.fromEntries(Object.entries(parts).filter(([, v]) => v !== undefined)) as T;
}

const resolve = (doc: OpenApiDocument, node: unknown): any => resolveRef<any>(doc, node);

/** A copy whose local `$ref`s point into the spec registered under SPEC_ID. */
function absolute(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === "$ref" && typeof value === "string" && value.startsWith("#") ? `${SPEC_ID}${value}` : value,
  );
}
