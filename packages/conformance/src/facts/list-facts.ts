// What the spec says a list's query does to its items, derived from the model rather than from a
// scenario: its filters (a query parameter that names a field of the items, "Return only …": the
// items must carry the value asked, or one of them for a repeated parameter) and its orderings (an
// enumerated parameter whose values name fields of the items: those sort ascending). A parameter
// whose matching the spec leaves open (x-unspecified, e.g. how a date matches) is neither. A list
// the spec adds gets both with no new code.

import type { OperationModel, ParameterModel } from "@platform-api/spec";
import { fieldOf } from "../shared/json.js";
import { oncePerOperation } from "./once-per-operation.js";
import { schemaAt, successSchemaPointer } from "./spec.js";

export interface ListFilter {
  parameter: ParameterModel;
  /** The item field it selects on (the parameter's own name). */
  field: string;
  /** A repeated parameter (`?status=a&status=b`): an item carries one of the values. */
  many: boolean;
}

export interface ListOrdering {
  parameter: ParameterModel;
  /** The values that name an item field, each sorting ascending by that field. */
  byField: string[];
}

/** The query parameters that are the list's paging, not its selection. */
function pagingNames(operation: OperationModel): string[] {
  const p = operation.pagination;
  if (!p) return [];
  return p.style === "offset" ? [p.limitParam, p.offsetParam] : [p.pageParam, p.limitParam];
}

/** The fields of a list's items, by the schema of its success answer. */
export function itemFields(operation: OperationModel): string[] {
  const p = operation.pagination;
  if (!p) return [];
  const properties = schemaAt(
    successSchemaPointer(operation),
    "properties",
    p.itemsField,
    "items",
    "properties",
  );
  return Object.keys(properties ?? {});
}

/** Whether the spec leaves the parameter's meaning open (x-unspecified on it). */
export function leftOpen(operation: OperationModel, parameter: ParameterModel): boolean {
  const listed = schemaAt(operation.pointer, "parameters");
  const count = Array.isArray(listed) ? listed.length : 0;
  for (let i = 0; i < count; i++) {
    const node = schemaAt(operation.pointer, "parameters", String(i));
    if (node?.name === parameter.name && node.in === parameter.in)
      return Array.isArray(node["x-unspecified"]) && node["x-unspecified"].length > 0;
  }
  return false;
}

const queryOf = (operation: OperationModel) =>
  operation.parameters.filter((p) => p.in === "query" && !pagingNames(operation).includes(p.name));

// Asked for on every page the judge sees (the filter and ordering rules): about a tenth of judging
// recorded traffic when derived each time.
export const listFilters: (operation: OperationModel) => readonly ListFilter[] = oncePerOperation(
  (operation) => {
    const fields = itemFields(operation);
    return queryOf(operation)
      .filter((p) => fields.includes(p.name) && !leftOpen(operation, p))
      .map((p) => ({ parameter: p, field: p.name, many: p.type === "array" }));
  },
);

export const listOrderings: (operation: OperationModel) => readonly ListOrdering[] = oncePerOperation(
  (operation) => {
    const fields = itemFields(operation);
    return queryOf(operation)
      .filter((p) => !fields.includes(p.name) && Array.isArray(p.enum))
      .map((p) => ({ parameter: p, byField: (p.enum ?? []).map(String).filter((v) => fields.includes(v)) }))
      .filter((o) => o.byField.length > 0);
  },
);

/** Identity of a list item: its id when it has one, else the whole record. */
export function identity(item: unknown): string {
  const id = fieldOf(item, "id");
  if (typeof id === "number" || typeof id === "string") return `id:${id}`;
  const taskId = fieldOf(item, "task_id");
  if (typeof taskId === "string") return `task_id:${taskId}`;
  return JSON.stringify(item);
}
