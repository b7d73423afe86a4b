// The model as a program needs it at run time (the client, in a browser): every operation's
// route, security, parameter facts, pagination and task-reading operation, the conventions, and
// how each security scheme that uses a header sends its token. Without what only tools and
// generators read (the product list, the schemes' types, summaries, pointers into the
// description, response schemas, parameters' explode, format and required, a page list's page
// and previous fields, an async task's fields and type, the rate limits other than the one every
// call obeys, polling rows no task type names, typical durations) or what the rest gives (an
// operation's `key` is its method and path), so a bundle that ships it stays small.
import type { TokenScheme } from "./security.js";
import type {
  AsyncTask,
  OffsetPagination,
  OperationModel,
  PagePagination,
  Pagination,
  ParameterModel,
  PollingInterval,
  RateLimit,
  SpecModel,
  TaskPolling,
} from "./types.js";

/**
 * A parameter as the client checks it: no pointer, example, `explode` or `format` (none is
 * checked), and no `required`: the client requires the path parameters, which OpenAPI makes
 * required always, and leaves query parameters to the server.
 */
export type RuntimeParameter = Omit<
  ParameterModel,
  "schemaPointer" | "example" | "explode" | "format" | "required"
>;

/** A list's pagination as a walk reads it: a page list's `pageParam` and `previousField` are not. */
export type RuntimePagination = OffsetPagination | Omit<PagePagination, "pageParam" | "previousField">;

export interface RuntimeOperation
  extends Pick<OperationModel, "operationId" | "method" | "path" | "product" | "security"> {
  readonly pagination?: RuntimePagination;
  /** Of an operation that starts a task (x-async-task), the operation that reads the task. */
  readonly asyncTask?: Pick<AsyncTask, "pollOperationId">;
  readonly parameters: readonly RuntimeParameter[];
}

/** A polling row as a program reads it: the task type it is for, and its interval. */
export type RuntimePollingInterval = Pick<PollingInterval, "taskType" | "pollIntervalSeconds">;

export interface RuntimeTaskPolling
  extends Pick<TaskPolling, "operationId" | "terminalStates" | "successState"> {
  /** Only the rows that name a task type: the others can never match a task. */
  readonly intervals: readonly RuntimePollingInterval[];
}

export interface RuntimeConventions {
  /** The server's `base_url` default. */
  readonly defaultBaseUrl: string;
  /** The limit that applies to every call (`appliesTo: all`): how many requests per period. */
  readonly requestRate: Pick<RateLimit, "limit" | "periodSeconds">;
  readonly taskPolling?: RuntimeTaskPolling;
}

export interface RuntimeModel {
  readonly operations: readonly RuntimeOperation[];
  readonly conventions: RuntimeConventions;
  /** Each security scheme that sends its token in a header, by name. */
  readonly securitySchemes: Readonly<Record<string, TokenScheme>>;
}

export function runtimeModel(model: SpecModel): RuntimeModel {
  return {
    operations: model.operations.map((o) => ({
      operationId: o.operationId,
      method: o.method,
      path: o.path,
      product: o.product,
      security: o.security,
      parameters: o.parameters.map(
        ({
          schemaPointer: _pointer,
          example: _example,
          explode: _explode,
          format: _format,
          required: _required,
          ...facts
        }) => facts,
      ),
      ...(o.pagination ? { pagination: runtimePagination(o.pagination) } : {}),
      ...(o.asyncTask ? { asyncTask: { pollOperationId: o.asyncTask.pollOperationId } } : {}),
    })),
    conventions: runtimeConventions(model),
    securitySchemes: Object.fromEntries(
      model.securitySchemes.flatMap(({ name, headerName, tokenPrefix }) =>
        headerName === undefined || tokenPrefix === undefined ? [] : [[name, { headerName, tokenPrefix }]],
      ),
    ),
  };
}

function runtimePagination(pagination: Pagination): RuntimePagination {
  if (pagination.style === "offset") return pagination;
  const { pageParam: _page, previousField: _previous, ...walk } = pagination;
  return walk;
}

function runtimeConventions({ conventions }: SpecModel): RuntimeConventions {
  const { defaultBaseUrl, requestRate, taskPolling } = conventions;
  return {
    defaultBaseUrl,
    requestRate: { limit: requestRate.limit, periodSeconds: requestRate.periodSeconds },
    ...(taskPolling
      ? {
          taskPolling: {
            operationId: taskPolling.operationId,
            terminalStates: taskPolling.terminalStates,
            successState: taskPolling.successState,
            intervals: taskPolling.intervals.flatMap(({ taskType, pollIntervalSeconds }) =>
              taskType === undefined ? [] : [{ taskType, pollIntervalSeconds }],
            ),
          },
        }
      : {}),
  };
}
