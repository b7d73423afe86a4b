// The shape of the spec model: what the packages need to know about the description, as plain
// data (no functions), so the same model is built at run time from any bundle and generated once
// into `generated/model.ts` for code that cannot read files (the client, in a browser).

import type { InferredRequired } from "./inferred.js";

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** A JSON Schema node as the description writes it (`$ref`s into the description may remain). */
export type SchemaNode = { readonly [keyword: string]: unknown };

/** What a caller can check of a value before sending it. */
export interface ValueFacts {
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly items?: ValueFacts;
  /** A query value that may also be sent as several, the key repeated once per value. */
  readonly repeatable?: boolean;
}

export interface ParameterModel extends ValueFacts {
  readonly name: string;
  readonly in: "path" | "query" | "header" | "cookie";
  readonly required: boolean;
  /** Query arrays: whether `?a=1&a=2` is the form (OpenAPI's default for query is explode: true). */
  readonly explode?: boolean;
  readonly example?: unknown;
  /** Pointer to the parameter's schema in the description (resolve it for the whole schema). */
  readonly schemaPointer: string;
}

export interface MediaModel {
  readonly contentType: string;
  /** Pointer to the schema in the description ("#/paths/…/schema"), when the media has one. */
  readonly schemaPointer?: string;
}

export interface ResponseModel {
  /** As documented: "200", "4XX" or "default". */
  readonly status: string;
  readonly content: readonly MediaModel[];
}

export interface OffsetPagination {
  readonly style: "offset";
  readonly limitParam: string;
  readonly offsetParam: string;
  readonly countField: string;
  readonly itemsField: string;
}

export interface PagePagination {
  readonly style: "page";
  readonly pageParam: string;
  readonly limitParam: string;
  readonly countField: string;
  readonly itemsField: string;
  readonly nextField: string;
  readonly previousField: string;
}

export type Pagination = OffsetPagination | PagePagination;

export interface AsyncTask {
  /** The answer's field that holds the task identifiers. */
  readonly tasksField: string;
  readonly taskType?: string;
  /** The `created_resources` key that holds what the task created. */
  readonly createdResourcesKey?: string;
  /** The operation that reads one task (`getTask`). */
  readonly pollOperationId: string;
}

export interface OperationModel {
  /** "GET /cloud/v1/tasks/{task_id}" */
  readonly key: string;
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template as in the description ("/cloud/v1/tasks/{task_id}"). */
  readonly path: string;
  /** Pointer to the operation's node in the description, for what the model leaves out. */
  readonly pointer: string;
  /** The operation's `x-product` ("cloud", "iam", …). */
  readonly product: string;
  readonly summary: string;
  readonly tags: readonly string[];
  /** Names of the security schemes that admit the operation (the operation's, else the root's). */
  readonly security: readonly string[];
  /** Path-level and operation-level parameters, merged, every `$ref` followed. */
  readonly parameters: readonly ParameterModel[];
  readonly requestBody?: { readonly required: boolean; readonly content: readonly MediaModel[] };
  readonly responses: readonly ResponseModel[];
  readonly pagination?: Pagination;
  readonly asyncTask?: AsyncTask;
  readonly unspecified: readonly string[];
}

export interface RateLimit {
  readonly id: string;
  readonly description?: string;
  /** "all" for every call; "login", "login-failures" for the login endpoint. */
  readonly appliesTo: string;
  readonly limit: number;
  readonly periodSeconds: number;
  readonly per: string;
  readonly exceededStatus: number;
}

export interface PollingInterval {
  readonly operation: string;
  readonly taskType?: string;
  readonly typicalDurationSeconds: { readonly min: number; readonly max: number };
  readonly pollIntervalSeconds: number;
}

export interface TaskPolling {
  /** The operation that reads a task, and carries `x-task-polling`. */
  readonly operationId: string;
  /** Every state a task can be in (the task schema's `state` enum). */
  readonly states: readonly string[];
  readonly terminalStates: readonly string[];
  /** The terminal state in which the task succeeded; every other terminal state is a failure. */
  readonly successState: string;
  readonly intervals: readonly PollingInterval[];
  /** Keys of a finished task's `created_resources`, from the task schema. */
  readonly createdResourcesKeys: readonly string[];
}

export interface SecuritySchemeModel {
  readonly name: string;
  readonly type: string;
  readonly in?: string;
  readonly headerName?: string;
  /** Of a scheme sending its token in a header: what precedes the token there ("APIKey "). */
  readonly tokenPrefix?: string;
}

export interface Conventions {
  /** The server's `base_url` default. */
  readonly defaultBaseUrl: string;
  readonly rateLimits: readonly RateLimit[];
  /** The limit that applies to every call (`appliesTo: all`). */
  readonly requestRate: RateLimit;
  readonly taskPolling?: TaskPolling;
}

export interface SpecModel {
  readonly title: string;
  readonly version: string;
  /** Every `x-product`, in the order the description first names them. */
  readonly products: readonly string[];
  readonly operations: readonly OperationModel[];
  readonly securitySchemes: readonly SecuritySchemeModel[];
  /** The scheme the root `security` names (what an operation without its own uses). */
  readonly defaultSecurity: readonly string[];
  readonly conventions: Conventions;
  /**
   * Fields a schema requires only by the description's inference (`x-inferred-required`), keyed by
   * the schema's pointer ("#/components/schemas/Task"): a server that leaves them out deviates from
   * the description, not from what the platform's documentation states.
   */
  readonly inferredRequired: InferredRequired;
}
