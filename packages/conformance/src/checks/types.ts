// A check of the registry: a small named function, its severity, and which operations of the spec
// it applies to (every operation, every x-pagination list of a style, every operation documenting
// a 404, …), read from the spec model. The suite runs every check on every operation it applies
// to, as the result `<check id>.<operationId>`: an operation the spec adds is checked with no new
// code. Stateful stories (a task's life, a quota error, a burst) stay hand-written scenarios.

import type { OperationModel } from "@platform-api/spec";
import type { Severity } from "../context.js";
import type { Need, ScenarioApi } from "../scenario.js";

export interface Check {
  /** "pagination.offset.count-is-total"; the result of an operation is `${id}.${operationId}`. */
  id: string;
  severity: Severity;
  /** What it applies to, in words (the README's table, the dry run). */
  appliesTo: string;
  applies(operation: OperationModel): boolean;
  title(operation: OperationModel): string;
  /** Preconditions; by default what calling the operation needs (its key, its path's project and region). */
  needs?(operation: OperationModel): Need[];
  /** What it would call, for --dry-run. */
  calls(operation: OperationModel): string[];
  run(api: ScenarioApi, operation: OperationModel): Promise<void>;
}

export const resultId = (check: Pick<Check, "id">, operation: Pick<OperationModel, "operationId">) =>
  `${check.id}.${operation.operationId}`;
