// Offset lists as the spec's `x-pagination` describes them: which operations they are, the names
// of their limit, offset, count and items, the limit's bounds and default, and one page read from
// an answer. Facts only: the walks that send requests are above (src/discovery/offset-walk.ts for
// discovery and the scenarios, src/active/lists.ts for the drivers).

import {
  type OffsetPagination,
  type OperationModel,
  type ParameterModel,
  paginatedOperations,
  requireParameter,
} from "@platform-api/spec";
import { fieldOf } from "../shared/json.js";
import { specModel } from "./spec.js";

export interface OffsetList {
  operation: OperationModel;
  pagination: OffsetPagination;
  limit: ParameterModel;
  offset: ParameterModel;
}

export function offsetList(operation: OperationModel): OffsetList {
  const pagination = operation.pagination;
  if (pagination?.style !== "offset")
    throw new Error(`${operation.operationId} is not an offset list (its x-pagination says otherwise).`);
  return {
    operation,
    pagination,
    limit: requireParameter(operation, pagination.limitParam, "query"),
    offset: requireParameter(operation, pagination.offsetParam, "query"),
  };
}

/** Every offset list of the spec (`x-pagination` style offset). */
export const allOffsetLists = (): OffsetList[] => paginatedOperations(specModel(), "offset").map(offsetList);

/**
 * The largest page the spec allows: the limit's maximum, else its default (a list without either
 * is read at the server's own page size).
 */
export const largestPage = (list: OffsetList): number | undefined =>
  numberOr(list.limit.maximum, list.limit.default);

export interface OffsetPage {
  offset: number;
  count: number;
  items: unknown[];
}

/** The count and items of an answer's body, or undefined when the body has not both. */
export function readOffsetPage(list: OffsetList, body: unknown, offset: number): OffsetPage | undefined {
  const count = fieldOf(body, list.pagination.countField);
  const items = fieldOf(body, list.pagination.itemsField);
  if (typeof count !== "number" || !Number.isInteger(count) || !Array.isArray(items)) return undefined;
  return { offset, count, items };
}

/** The query of one page: `limit` and `offset` under the names the spec gives them. */
export function pageQuery(list: OffsetList, limit: number | undefined, offset: number) {
  return {
    ...(limit === undefined ? {} : { [list.limit.name]: limit }),
    [list.offset.name]: offset,
  };
}

function numberOr(...values: unknown[]): number | undefined {
  return values.find((v): v is number => typeof v === "number");
}
