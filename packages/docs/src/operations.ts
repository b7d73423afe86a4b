// The operations of the bundled description, with path-level parameters merged in and every
// $ref followed, in the order the description lists them.
import { resolveRef } from "@platform-api/spec";

export type Json = Record<string, unknown>;

export interface Parameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  example?: unknown;
  schema?: Json;
}

export interface Operation {
  method: "get" | "put" | "post" | "delete" | "patch";
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  node: Json;
  parameters: Parameter[];
  /** The first example of the JSON request body, when the description has one. */
  bodyExample: unknown;
  hasBody: boolean;
  /** True when the operation is authenticated with the reseller admin-portal token. */
  reseller: boolean;
  /** True when a success answer has a JSON body. */
  answersJson: boolean;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

export function listOperations(doc: Json): Operation[] {
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const out: Operation[] = [];
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolveRef<Json>(doc, rawItem) ?? {};
    const shared = ((item.parameters ?? []) as unknown[]).map((p) => resolveRef<Parameter>(doc, p));
    for (const method of METHODS) {
      const node = item[method] as Json | undefined;
      if (!node) continue;
      const own = ((node.parameters ?? []) as unknown[]).map((p) => resolveRef<Parameter>(doc, p));
      const byKey = new Map<string, Parameter>();
      for (const p of [...shared, ...own]) if (p) byKey.set(`${p.in}:${p.name}`, p);
      const body = resolveRef<Json>(doc, node.requestBody);
      const media = (body?.content as Record<string, Json> | undefined)?.["application/json"];
      const operationId = String(node.operationId ?? "");
      if (!operationId)
        throw new Error(`${method.toUpperCase()} ${path} has no operationId; samples need one.`);
      out.push({
        method,
        path,
        operationId,
        summary: String(node.summary ?? operationId),
        tags: (node.tags ?? []) as string[],
        node,
        parameters: [...byKey.values()],
        bodyExample: media ? firstExample(doc, media) : undefined,
        hasBody: media !== undefined,
        reseller: ((node.security ?? doc.security ?? []) as Json[]).some((s) => "ResellerAPIKey" in s),
        answersJson: answersJson(doc, node),
      });
    }
  }
  return out;
}

function firstExample(doc: Json, media: Json): unknown {
  if (media.example !== undefined) return media.example;
  const examples = Object.values((media.examples ?? {}) as Record<string, unknown>);
  const first = examples.length > 0 ? resolveRef<Json>(doc, examples[0]) : undefined;
  return first?.value;
}

function answersJson(doc: Json, node: Json): boolean {
  const responses = (node.responses ?? {}) as Record<string, unknown>;
  return Object.entries(responses).some(([status, raw]) => {
    if (!/^2/.test(status)) return false;
    const response = resolveRef<Json>(doc, raw);
    return Boolean((response?.content as Json | undefined)?.["application/json"]);
  });
}

/** An illustrative value for a parameter: its own example, its schema's, else one of its type. */
export function exampleValue(doc: Json, parameter: Parameter): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const schema = resolveRef<Json>(doc, parameter.schema) ?? {};
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
  if (schema.type === "integer" || schema.type === "number") return 1;
  if (schema.type === "boolean") return true;
  return parameter.name;
}
