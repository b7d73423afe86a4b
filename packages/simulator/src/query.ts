// Every query parameter an operation of the served description takes is honoured or refused, never
// accepted and ignored. Most follow from the description itself: a paging parameter pages (the
// handler does, from the operation's x-pagination), a parameter named like a field of the listed
// item filters on it (one value, or any of a repeated one), and an `order_by` whose values are
// `<field>.asc|desc` over the item's fields sorts. What the description cannot say is an override in
// handlers/query-rules.ts; a parameter with neither stops the start, as an operation without a
// handler does. A refused parameter is answered with the operation's refusal status naming it.

import { type OperationModel, resolvePointer, resolveRef } from "@platform-api/spec";
import { ApiError, refusalStatus } from "./errors.js";

export type Item = { readonly [field: string]: unknown };

export interface QueryContext {
  /** The query after validation, the spec's defaults filled in. */
  readonly query: { readonly [name: string]: unknown };
  /** What the caller sent, to tell a value sent from a default. */
  readonly sent: URLSearchParams;
}

/** How one query parameter is honoured (or refused). */
export type QueryRule =
  /** Paging: the handler applies it (offset lists, page lists, the task list). */
  | { readonly kind: "page" }
  /** Keeps the items whose `field` equals the value, or one of the values when repeated. */
  | { readonly kind: "filter"; readonly field: string }
  /** Sorts by `<field>.asc|desc`. */
  | { readonly kind: "order" }
  /** What the description cannot say: `what` says what it does, `apply` does it. */
  | {
      readonly kind: "custom";
      readonly what: string;
      readonly phase: "filter" | "order";
      readonly apply: (items: Item[], value: unknown, context: QueryContext) => Item[];
    }
  /** Honoured by the handler itself, with what only it knows (`what` says how). */
  | { readonly kind: "handler"; readonly what: string }
  /** Refused with a 400 naming it: `why` ends the message. */
  | { readonly kind: "refuse"; readonly why: string };

export interface QueryOverrides {
  readonly rules: {
    readonly [operationId: string]: { readonly [parameter: string]: QueryRule } | undefined;
  };
  /**
   * The component schema of a listed item, where the answer's schema does not give it (the task
   * list's `results` has no items schema: the simulator lists Task records).
   */
  readonly items: { readonly [operationId: string]: string | undefined };
}

export interface QueryPlan {
  readonly rules: ReadonlyMap<string, QueryRule>;
  /** Filters and orders the items as the query asks (paging is the handler's). */
  select<T>(items: readonly T[], context: QueryContext): T[];
  /** Throws the refusal for a refused parameter the caller sent. */
  refuse(sent: URLSearchParams): void;
}

const ORDER_VALUE = /^(.+)\.(asc|desc)$/;

type Schema = { readonly [keyword: string]: unknown };

const deref = (doc: object, node: unknown): Schema | undefined => resolveRef<Schema>(doc, node);

/** The schema of one listed item: the answer's items field (x-pagination's, else `results`), or the array's items. */
export function itemSchemaOf(doc: object, operation: OperationModel): Schema | undefined {
  const pointer = operation.responses
    .find((r) => r.status === "200")
    ?.content.find((m) => m.contentType === "application/json")?.schemaPointer;
  const body = deref(doc, pointer ? resolvePointer(doc, pointer) : undefined);
  if (!body) return undefined;
  if (body.type === "array") return deref(doc, body.items);
  const field = operation.pagination?.itemsField ?? "results";
  const list = deref(doc, (body.properties as Record<string, unknown> | undefined)?.[field]);
  return list?.type === "array" ? deref(doc, list.items) : undefined;
}

/** Item field names, allOf parts included. */
function fieldsOf(doc: object, schema: Schema | undefined): Set<string> {
  const names = new Set<string>();
  const visit = (node: Schema | undefined) => {
    if (!node) return;
    for (const name of Object.keys((node.properties as object | undefined) ?? {})) names.add(name);
    for (const part of (node.allOf as unknown[] | undefined) ?? []) visit(deref(doc, part));
  };
  visit(schema);
  return names;
}

/** The rule the description itself gives a parameter, if any. */
export function genericRule(
  operation: OperationModel,
  fields: ReadonlySet<string>,
  name: string,
): QueryRule | undefined {
  const { pagination } = operation;
  if (
    pagination &&
    [
      pagination.limitParam,
      pagination.style === "offset" ? pagination.offsetParam : pagination.pageParam,
    ].includes(name)
  )
    return { kind: "page" };
  if (fields.has(name)) return { kind: "filter", field: name };
  const parameter = operation.parameters.find((p) => p.in === "query" && p.name === name);
  const values = (parameter?.enum ?? []).map(String);
  if (
    name === "order_by" &&
    values.length > 0 &&
    values.every((v) => fields.has(ORDER_VALUE.exec(v)?.[1] ?? "\u0000"))
  )
    return { kind: "order" };
  return undefined;
}

/** Orders two field values: numbers by size, anything else by its text (ISO times sort so too). */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Whether an item's field value matches what the filter was sent (any of the values when repeated). */
export function matchesFilter(value: unknown, sent: unknown): boolean {
  return [sent].flat().some((wanted) => wanted === value);
}

export function planQuery(doc: object, operation: OperationModel, overrides: QueryOverrides): QueryPlan {
  const own = overrides.rules[operation.operationId] ?? {};
  const named = overrides.items[operation.operationId];
  const fields = fieldsOf(
    doc,
    named ? deref(doc, { $ref: `#/components/schemas/${named}` }) : itemSchemaOf(doc, operation),
  );
  const names = operation.parameters.filter((p) => p.in === "query").map((p) => p.name);
  const rules = new Map<string, QueryRule>();
  const missing: string[] = [];
  for (const name of names) {
    const rule = own[name] ?? genericRule(operation, fields, name);
    if (rule) rules.set(name, rule);
    else missing.push(name);
  }
  if (missing.length > 0)
    throw new Error(
      `${operation.operationId}: the query parameters ${missing.join(", ")} have no rule: no field of the listed item has the name, and handlers/query-rules.ts neither honours nor refuses them.`,
    );
  const stale = Object.keys(own).filter((name) => !names.includes(name));
  if (stale.length > 0)
    throw new Error(
      `handlers/query-rules.ts names query parameters ${operation.operationId} does not take: ${stale.join(", ")}.`,
    );
  const status = refusalStatus(operation);
  const refused = [...rules].filter(([, rule]) => rule.kind === "refuse");
  if (refused.length > 0 && status === undefined)
    throw new Error(`${operation.operationId} documents no status that could refuse ${refused[0]?.[0]}.`);

  return {
    rules,
    refuse(sent) {
      for (const [name, rule] of refused)
        if (rule.kind === "refuse" && sent.has(name))
          throw new ApiError(
            status ?? 400,
            `Query parameter "${name}" is documented by the platform but not simulated; ${rule.why}`,
          );
    },
    select<T>(given: readonly T[], context: QueryContext): T[] {
      let items = [...given] as unknown as Item[];
      const value = (name: string) => context.query[name];
      for (const [name, rule] of rules) {
        if (value(name) === undefined) continue;
        if (rule.kind === "filter")
          items = items.filter((item) => matchesFilter(item[rule.field], value(name)));
        if (rule.kind === "custom" && rule.phase === "filter")
          items = rule.apply(items, value(name), context);
      }
      for (const [name, rule] of rules) {
        if (value(name) === undefined) continue;
        if (rule.kind === "order") {
          const [, field = "", direction] = ORDER_VALUE.exec(String(value(name))) ?? [];
          const sign = direction === "desc" ? -1 : 1;
          items = items.sort((a, b) => sign * compareValues(a[field], b[field]));
        }
        if (rule.kind === "custom" && rule.phase === "order") items = rule.apply(items, value(name), context);
      }
      return items as unknown as T[];
    },
  };
}
