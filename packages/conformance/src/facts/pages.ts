// Page lists as the spec's `x-pagination` (style page) describes them: the names of their page,
// limit, count, items and links. Facts only: the walk that follows `next` is src/active/page-walk.ts.
// The page-list rules and driver (src/rules/page-*.ts, src/active/drivers/page-list.ts) read every
// page list of the spec through here.

import {
  type OperationModel,
  type PagePagination,
  type ParameterModel,
  requireParameter,
} from "@platform-api/spec";
import { schemaAt, successSchemaPointer } from "./spec.js";

export interface PageList {
  operation: OperationModel;
  pagination: PagePagination;
  page: ParameterModel;
  limit: ParameterModel;
  /** The count the answer's schema gives by default (AiTaskList: 0), for an answer without one. */
  countDefault: number | undefined;
}

export function pageList(operation: OperationModel): PageList {
  const pagination = operation.pagination;
  if (pagination?.style !== "page")
    throw new Error(`${operation.operationId} is not a page list (its x-pagination says otherwise).`);
  const countDefault = schemaAt(
    successSchemaPointer(operation),
    "properties",
    pagination.countField,
  )?.default;
  return {
    operation,
    pagination,
    page: requireParameter(operation, pagination.pageParam, "query"),
    limit: requireParameter(operation, pagination.limitParam, "query"),
    countDefault: typeof countDefault === "number" ? countDefault : undefined,
  };
}

/** `next` is "the query-string part"; a full URL or a leading "?" is read too. */
export function linkQuery(link: string): string {
  const q = link.includes("?") ? link.slice(link.indexOf("?") + 1) : link;
  return q.replace(/^\?/, "");
}
