// The one walk over the description's operations: each operation with its parameters (merged
// from the path and the operation, every $ref followed), statuses, schemas by pointer, security,
// product, and the list and task conventions it declares (x-pagination, x-async-task).
import { type JsonObject, pointer, resolveRef } from "../ref.js";
import { asArray, escapeSegment, isObject, targetPointer, withoutUnspecified } from "./json.js";
import {
  type AsyncTask,
  HTTP_METHODS,
  type MediaModel,
  type OperationModel,
  type Pagination,
  type ParameterModel,
  type ResponseModel,
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

/** The walk's view of one description: references followed, value facts and media read alike everywhere. */
interface Reader {
  doc: JsonObject;
  resolve: (node: unknown) => JsonObject | undefined;
  facts: (raw: unknown) => ValueFacts;
  media: (content: unknown, base: string) => MediaModel[];
}

function readerOf(doc: JsonObject): Reader {
  const resolve = (node: unknown) => resolveRef<JsonObject>(doc, node);

  const facts = (raw: unknown): ValueFacts => {
    const schema = resolve(raw) ?? {};
    // One value, or the key repeated once per value (the merged bundle's form where the seed
    // describes one value and the platform's published description an array).
    const [one, many, ...more] = Array.isArray(schema.anyOf) ? schema.anyOf : [];
    if (
      more.length === 0 &&
      isObject(many) &&
      many.type === "array" &&
      JSON.stringify(many.items) === JSON.stringify(one)
    )
      return { ...facts(one), repeatable: true };
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

  return { doc, resolve, facts, media };
}

export function readOperations(doc: JsonObject): { operations: OperationModel[]; products: string[] } {
  const read = readerOf(doc);
  const defaultSecurity = schemeNames(doc.security);
  const operations: OperationModel[] = [];
  const products: string[] = [];
  for (const [path, rawItem] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    const item = read.resolve(rawItem) ?? {};
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const operation = readOperation(read, { path, item, method, op }, defaultSecurity);
      if (!products.includes(operation.product)) products.push(operation.product);
      operations.push(operation);
    }
  }
  return { operations, products };
}

interface OperationAt {
  path: string;
  item: JsonObject;
  method: OperationModel["method"];
  op: JsonObject;
}

function readOperation(read: Reader, at: OperationAt, defaultSecurity: string[]): OperationModel {
  const { doc, resolve, media } = read;
  const { path, method, op } = at;
  const key = `${method.toUpperCase()} ${path}`;
  if (typeof op.operationId !== "string" || op.operationId === "")
    throw new Error(`${key} has no operationId.`);
  if (typeof op["x-product"] !== "string") throw new Error(`${key} (${op.operationId}) has no x-product.`);
  const opPointer = pointer("paths", path, method);
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
  return {
    key,
    operationId: op.operationId,
    method,
    path,
    pointer: opPointer,
    product: op["x-product"],
    summary: typeof op.summary === "string" ? op.summary : op.operationId,
    tags: asArray(op.tags).filter((t): t is string => typeof t === "string"),
    security: op.security === undefined ? defaultSecurity : schemeNames(op.security),
    parameters: readParameters(read, at, opPointer),
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
  };
}

/** The path item's parameters, then the operation's own: one of the same name and place replaces the shared one. */
function readParameters(read: Reader, at: OperationAt, opPointer: string): ParameterModel[] {
  const { doc, resolve, facts } = read;
  const byKey = new Map<string, ParameterModel>();
  const shared = asArray(at.item.parameters).map((raw, i) => ({
    raw,
    where: `${pointer("paths", at.path)}/parameters/${i}`,
  }));
  const own = asArray(at.op.parameters).map((raw, i) => ({ raw, where: `${opPointer}/parameters/${i}` }));
  for (const { raw, where } of [...shared, ...own]) {
    const p = resolve(raw);
    if (!p || typeof p.name !== "string") continue;
    const schemaPointer = targetPointer(doc, p.schema, `${targetPointer(doc, raw, where)}/schema`);
    byKey.set(`${p.in}:${p.name}`, {
      name: p.name,
      in: p.in as ParameterModel["in"],
      required: p.required === true,
      ...(typeof p.explode === "boolean" ? { explode: p.explode } : {}),
      ...(p.example !== undefined ? { example: p.example } : {}),
      ...facts(p.schema),
      schemaPointer,
    });
  }
  return [...byKey.values()];
}

export function schemeNames(security: unknown): string[] {
  return [
    ...new Set(
      asArray(security)
        .filter(isObject)
        .flatMap((s) => Object.keys(s)),
    ),
  ];
}
