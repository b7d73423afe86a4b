// A driver of an active run: what the suite sends so that the rules (src/rules/) have exchanges to
// judge (a walk in small pages, every filter on every page, a request beyond a bound, an unknown
// id, a call without a token). It asserts nothing of its own: the judge decides. What keeps it from
// finishing (no answer, a page that is no page) is said in the results of the operation it drove.

import type { OperationModel } from "@platform-api/spec";
import type { Http } from "../../http/http.js";
import type { Need, RunContext } from "../../shared/context.js";

export interface DriverApi {
  run: RunContext;
  http: Http;
  /** Stops this driver on this operation, saying why (nothing it could send would mean anything). */
  skip(reason: string): never;
}

export interface Driver {
  id: string;
  /** The rules whose exchanges it makes, by id prefix: what it could not finish is said in their results. */
  feeds: string[];
  /** What it drives, in words (the README's table). */
  appliesTo: string;
  applies(operation: OperationModel): boolean;
  needs(operation: OperationModel): Need[];
  /** What it would call, for --dry-run. */
  calls(operation: OperationModel): string[];
  drive(api: DriverApi, operation: OperationModel): Promise<void>;
}
