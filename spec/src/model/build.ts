// Turns a bundled description into the spec model. This is the one walk over the description's
// operations in the project; every package reads the operations and the platform's conventions
// (x-rate-limits, x-pagination, x-async-task, x-task-polling) from here.
import { type JsonObject, pointer, resolvePointer, resolveRef } from "../ref.js";
import {
  type AsyncTask,
  type Conventions,
  HTTP_METHODS,
  type MediaModel,
  type OperationModel,
  type Pagination,
  type ParameterModel,
  type PollingInterval,
  type RateLimit,
  type ResponseModel,
  type SecuritySchemeModel,
  type SpecModel,
  type TaskPolling,
  type ValueFacts,
} from "./types.js";

const FACT_KEYWORDS = [
  "type",
  "format",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "default",
  "enum",
] as const;

export function buildModel(doc: unknown): SpecModel {
  if (!isObject(doc) || !isObject(doc.paths))
    throw new Error("Not an OpenAPI description: it has no `paths`.");
  const resolve = (node: unknown) => resolveRef<JsonObject>(doc, node);
  const info = isObject(doc.info) ? doc.info : {};
  const defaultSecurity = schemeNames(doc.security);

  const facts = (raw: unknown): ValueFacts => {
    const schema = resolve(raw) ?? {};
    const out: Record<string, unknown> = {};
    for (const key of FACT_KEYWORDS) if (schema[key] !== undefined) out[key] = schema[key];
    if (schema.items !== undefined) out.items = facts(schema.items);
    return out as ValueFacts;
  };

  // Pointers name the node a reference finally leads to, so a schema is compiled once however
  // many operations share it.
  const media = (content: unknown, base: string): MediaModel[] =>
    Object.entries(isObject(content) ? content : {}).map(([contentType, raw]) => {
      const at = targetPointer(doc, raw, `${base}/content/${escapeSegment(contentType)}`);
      const value = resolve(raw) ?? {};
      if (value.schema === undefined) return { contentType };
      return { contentType, schemaPointer: targetPointer(doc, value.schema, `${at}/schema`) };
    });

  const operations: OperationModel[] = [];
  const products: string[] = [];
  for (const [path, rawItem] of Object.entries(doc.paths)) {
    const item = resolve(rawItem) ?? {};
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const key = `${method.toUpperCase()} ${path}`;
      if (typeof op.operationId !== "string" || op.operationId === "")
        throw new Error(`${key} has no operationId.`);
      if (typeof op["x-product"] !== "string")
        throw new Error(`${key} (${op.operationId}) has no x-product.`);
      if (!products.includes(op["x-product"])) products.push(op["x-product"]);
      const opPointer = pointer("paths", path, method);

      const byKey = new Map<string, ParameterModel>();
      const shared = asArray(item.parameters).map((raw, i) => ({
        raw,
        at: `${pointer("paths", path)}/parameters/${i}`,
      }));
      const own = asArray(op.parameters).map((raw, i) => ({ raw, at: `${opPointer}/parameters/${i}` }));
      for (const { raw, at } of [...shared, ...own]) {
        const p = resolve(raw);
        if (!p || typeof p.name !== "string") continue;
        const schemaPointer = targetPointer(doc, p.schema, `${targetPointer(doc, raw, at)}/schema`);
        const parameter: ParameterModel = {
          name: p.name,
          in: p.in as ParameterModel["in"],
          required: p.required === true,
          ...(typeof p.explode === "boolean" ? { explode: p.explode } : {}),
          ...(p.example !== undefined ? { example: p.example } : {}),
          ...facts(p.schema),
          schemaPointer,
        };
        byKey.set(`${p.in}:${p.name}`, parameter);
      }

      const body = resolve(op.requestBody);
      const responses: ResponseModel[] = Object.entries(isObject(op.responses) ? op.responses : {}).map(
        ([status, raw]) => ({
          status,
          content: media(
            resolve(raw)?.content,
            targetPointer(doc, raw, `${opPointer}/responses/${escapeSegment(status)}`),
          ),
        }),
      );

      operations.push({
        key,
        operationId: op.operationId,
        method,
        path,
        pointer: opPointer,
        product: op["x-product"],
        summary: typeof op.summary === "string" ? op.summary : op.operationId,
        tags: asArray(op.tags).filter((t): t is string => typeof t === "string"),
        security: op.security === undefined ? defaultSecurity : schemeNames(op.security),
        parameters: [...byKey.values()],
        ...(body
          ? {
              requestBody: {
                required: body.required === true,
                content: media(body.content, targetPointer(doc, op.requestBody, `${opPointer}/requestBody`)),
              },
            }
          : {}),
        responses,
        ...(isObject(op["x-pagination"])
          ? { pagination: withoutUnspecified(op["x-pagination"]) as unknown as Pagination }
          : {}),
        ...(isObject(op["x-async-task"])
          ? { asyncTask: withoutUnspecified(op["x-async-task"]) as unknown as AsyncTask }
          : {}),
        unspecified: asArray(op["x-unspecified"]).filter((s): s is string => typeof s === "string"),
      });
    }
  }

  const ids = new Map<string, string>();
  for (const o of operations) {
    const seen = ids.get(o.operationId);
    if (seen) throw new Error(`operationId ${o.operationId} is used twice: ${seen} and ${o.key}.`);
    ids.set(o.operationId, o.key);
  }
  for (const o of operations) {
    if (o.asyncTask && !ids.has(o.asyncTask.pollOperationId))
      throw new Error(
        `${o.operationId}'s x-async-task polls ${o.asyncTask.pollOperationId}, which is not an operation.`,
      );
  }

  return {
    title: String(info.title ?? ""),
    version: String(info.version ?? ""),
    products,
    operations,
    securitySchemes: securitySchemes(doc),
    defaultSecurity,
    conventions: conventions(doc, operations),
  };
}

function conventions(doc: JsonObject, operations: OperationModel[]): Conventions {
  const rateLimits = asArray(doc["x-rate-limits"])
    .filter(isObject)
    .map((r) => withoutUnspecified(r) as unknown as RateLimit);
  const requestRate = rateLimits.find((r) => r.appliesTo === "all");
  if (!requestRate) throw new Error("x-rate-limits has no limit that applies to all calls (appliesTo: all).");
  const servers = asArray(doc.servers).filter(isObject);
  const variables = isObject(servers[0]?.variables) ? servers[0].variables : {};
  const baseUrl = isObject(variables.base_url) ? variables.base_url.default : servers[0]?.url;
  if (typeof baseUrl !== "string") throw new Error("The description names no server base address.");
  const taskPolling = readTaskPolling(doc, operations);
  return { defaultBaseUrl: baseUrl, rateLimits, requestRate, ...(taskPolling ? { taskPolling } : {}) };
}

function readTaskPolling(doc: JsonObject, operations: OperationModel[]): TaskPolling | undefined {
  const found = operations
    .map((o) => ({ o, node: resolveRef<JsonObject>(doc, pointerNode(doc, o.pointer))?.["x-task-polling"] }))
    .filter((f): f is { o: OperationModel; node: JsonObject } => isObject(f.node));
  if (found.length === 0) return undefined;
  if (found.length > 1)
    throw new Error(
      `x-task-polling is on ${found.map((f) => f.o.operationId).join(" and ")}; expected on one operation.`,
    );
  const { o, node } = found[0] as { o: OperationModel; node: JsonObject };
  const task = resolveRef<JsonObject>(doc, schemaOf(doc, o, "200"));
  const properties = isObject(task?.properties) ? task.properties : {};
  const state = resolveRef<JsonObject>(doc, properties.state);
  const created = resolveRef<JsonObject>(doc, properties.created_resources);
  return {
    operationId: o.operationId,
    states: asArray(state?.enum).map(String),
    terminalStates: asArray(node.terminalStates).map(String),
    intervals: asArray(node.intervals).filter(isObject) as unknown as PollingInterval[],
    createdResourcesKeys: Object.keys(isObject(created?.properties) ? created.properties : {}),
  };
}

function schemaOf(doc: JsonObject, o: OperationModel, status: string): unknown {
  const p = o.responses
    .find((r) => r.status === status)
    ?.content.find((m) => m.contentType === "application/json")?.schemaPointer;
  return p ? resolveRef(doc, { $ref: p }) : undefined;
}

/** The pointer of the node a chain of references ends at, else `here` (the node is inline). */
function targetPointer(doc: JsonObject, node: unknown, here: string): string {
  let at = here;
  let current = node;
  for (let hops = 0; isRef(current) && hops < 20; hops++) {
    at = current.$ref;
    current = resolvePointer(doc, at);
  }
  return at;
}

function pointerNode(doc: JsonObject, p: string): unknown {
  return resolveRef(doc, { $ref: p });
}

function securitySchemes(doc: JsonObject): SecuritySchemeModel[] {
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  return Object.entries(schemes).map(([name, raw]) => {
    const s = resolveRef<JsonObject>(doc, raw) ?? {};
    return {
      name,
      type: String(s.type ?? ""),
      ...(typeof s.in === "string" ? { in: s.in } : {}),
      ...(typeof s.name === "string" ? { headerName: s.name } : {}),
    };
  });
}

function schemeNames(security: unknown): string[] {
  return [
    ...new Set(
      asArray(security)
        .filter(isObject)
        .flatMap((s) => Object.keys(s)),
    ),
  ];
}

function withoutUnspecified(node: JsonObject): JsonObject {
  const { "x-unspecified": _open, ...rest } = node;
  return rest;
}

const escapeSegment = (segment: string) => segment.replace(/~/g, "~0").replace(/\//g, "~1");
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
function isRef(value: unknown): value is { $ref: string } {
  return isObject(value) && typeof value.$ref === "string";
}
