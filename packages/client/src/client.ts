import createFetchClient, { type Client } from "openapi-fetch";
import type { PAGINATION } from "./generated/conventions.js";
import { type ClientOptions, givenKeys, type ResolvedOptions, resolveOptions, tokenFor } from "./options.js";
import { createPaginator, type PaginateOptions, type Paginator } from "./pagination.js";
import { createRedactor, type Redactor } from "./redact.js";
import { requireData } from "./results.js";
import { type FinishedTask, type Task, type WaitForTaskOptions, waitForTask, waitForTasks } from "./tasks.js";
import { RateLimiter } from "./transport/rate-limiter.js";
import { CALL_CONTEXT, type CallContext, createTransport, type Logger } from "./transport/transport.js";
import { type RequestParams, validateParams } from "./validation.js";

/** Puts the reseller token on `/cloud/reseller` operations (paths relative to the base URL). */
function resellerTokenFor(resolved: ResolvedOptions) {
  const basePath = new URL(resolved.baseUrl).pathname.replace(/\/+$/, "");
  return (url: string, headers: Headers) => {
    const token = tokenFor(resolved, new URL(url).pathname.slice(basePath.length));
    if (token !== resolved.apiKey) headers.set("Authorization", `APIKey ${token}`);
  };
}

// Type helpers over a `paths` type: which paths page, and what their pages and items are.
type GetOp<Paths, P extends keyof Paths> = Paths[P] extends { get: infer Op } ? Op : never;
type JsonOk<Op> = Op extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;
/** The paths the spec marks as paginated (x-pagination), within this client's paths. */
export type ListPaths<Paths> = Extract<
  keyof Paths,
  keyof typeof PAGINATION extends `GET ${infer P}` ? P : never
>;
export type PageOf<Paths, P extends keyof Paths> = JsonOk<GetOp<Paths, P>>;
export type ItemOf<Paths, P extends keyof Paths> =
  PageOf<Paths, P> extends { results: readonly (infer I)[] } ? I : never;
type ParamsOf<Paths, P extends keyof Paths> =
  GetOp<Paths, P> extends { parameters: infer Params } ? Params : never;

export interface PaginateInit<Paths, P extends keyof Paths> extends PaginateOptions {
  params?: {
    query?: ParamsOf<Paths, P> extends { query?: infer Q } ? Q : never;
    path?: ParamsOf<Paths, P> extends { path?: infer Pp } ? Pp : never;
  };
}

export interface PlatformHelpers<Paths extends {}> {
  /**
   * Walks a list operation (offset or page pagination, as the spec's x-pagination says):
   * `for await (const item of client.paginate(path))`, or `.pages()` for whole pages.
   * Throws ApiError subclasses for failed pages and PaginationError when the server contradicts itself.
   */
  paginate<P extends ListPaths<Paths>>(
    path: P,
    init?: PaginateInit<Paths, P>,
  ): Paginator<ItemOf<Paths, P>, PageOf<Paths, P>>;
  /** Polls a cloud task until FINISHED (resolves) or ERROR (TaskFailedError), within a deadline (TaskTimeoutError). */
  waitForTask(taskId: string, options?: WaitForTaskOptions): Promise<FinishedTask>;
  /** Waits for every task of a write call, e.g. `waitForTasks(data.tasks)`. */
  waitForTasks(taskIds: readonly string[], options?: WaitForTaskOptions): Promise<FinishedTask[]>;
  /** The limiter shared by every call of this client (undefined when `rateLimit: false`). */
  readonly rateLimiter: RateLimiter | undefined;
}

export type PlatformClientOf<Paths extends {}> = Client<Paths, "application/json"> & PlatformHelpers<Paths>;

/** The logger, with every line redacted of the keys. */
function redactedLogger(logger: Logger | undefined, redactor: Redactor): Logger | undefined {
  if (!logger) return undefined;
  const out: Logger = {};
  if (logger.warn) out.warn = (line) => logger.warn?.(redactor.text(line));
  if (logger.debug) out.debug = (line) => logger.debug?.(redactor.text(line));
  return out;
}

/** Items of `source`, with any error it throws redacted. */
async function* redactedIterable<T>(source: AsyncIterable<T>, redactor: Redactor): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (error) {
    throw redactor.error(error);
  }
}

const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

/** A typed client over the given `paths` (the whole API, or one product's). */
export function createPlatformClient<Paths extends {}>(options?: ClientOptions): PlatformClientOf<Paths> {
  let resolved: ResolvedOptions;
  try {
    resolved = resolveOptions(options);
  } catch (error) {
    // A refused option's message may quote its value: never a key, wherever it was put.
    const given = givenKeys(options).filter((key): key is string => typeof key === "string");
    throw createRedactor(given).error(error);
  }
  // Whatever a server echoes back, no error or log line of this client holds either key.
  const redactor = createRedactor([resolved.apiKey, resolved.resellerApiKey]);
  const rethrow = (error: unknown): never => {
    throw redactor.error(error);
  };
  const rateLimiter = resolved.rateLimit ? new RateLimiter(resolved.rateLimit) : undefined;
  const transport = createTransport({
    fetch: resolved.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: resolved.retry,
    timeoutMs: resolved.timeoutMs,
    deadlineMs: resolved.deadlineMs,
    limiter: rateLimiter,
    logger: redactedLogger(resolved.logger, redactor),
    // The client token is a default header; only reseller operations swap in the reseller token.
    ...(resolved.resellerApiKey ? { prepareHeaders: resellerTokenFor(resolved) } : {}),
  });
  const raw = createFetchClient<Paths, "application/json">({
    baseUrl: resolved.baseUrl,
    headers: { ...resolved.headers, Authorization: `APIKey ${resolved.apiKey}` },
    fetch: transport.fetch,
  });

  // Each method checks parameters against the spec before openapi-fetch builds the request, and
  // tells the transport about the call (caller signal; controller reuse once the body is read).
  const client = { ...raw } as Record<string, unknown>;
  type Init = { params?: RequestParams; signal?: AbortSignal | null; parseAs?: string };
  for (const method of METHODS) {
    const send = raw[method] as (path: string, init?: Init) => Promise<unknown>;
    // async, so a refused parameter is a rejected promise like every other failure of a call
    client[method] = async (path: string, init?: Init) => {
      if (resolved.validateParams) {
        try {
          validateParams(method, path, init?.params);
        } catch (error) {
          rethrow(error);
        }
      }
      const context: CallContext = { callerSignal: init?.signal != null };
      try {
        const result = (await send(path, { ...init, [CALL_CONTEXT]: context } as Init)) as {
          error?: unknown;
        };
        // The server's error body, as handed back: redacted like an error's body.
        if (result?.error !== undefined) result.error = redactor.value(result.error);
        return result;
      } catch (error) {
        return rethrow(error);
      } finally {
        // A streamed body is still being read by the caller: its controller must stay its own.
        if (init?.parseAs !== "stream") transport.releaseCall(context);
      }
    };
  }
  const get = client.GET as (
    path: string,
    init?: object,
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

  const fetchTask = async (taskId: string, signal: AbortSignal | undefined): Promise<Task> => {
    const path = `/cloud/v1/tasks/${taskId}`;
    return requireData(
      await get("/cloud/v1/tasks/{task_id}", { params: { path: { task_id: taskId } }, signal }),
      "GET",
      path,
    ) as Task;
  };

  const helpers: PlatformHelpers<Paths> = {
    paginate(path, init = {}) {
      const { params, concurrency, signal } = init;
      const query = (params?.query ?? {}) as Record<string, unknown>;
      const pathParams = params?.path as Record<string, unknown> | undefined;
      const template = String(path);
      let paginator: Paginator<unknown, unknown>;
      try {
        paginator = createPaginator(
          template,
          query,
          async (pageQuery) => {
            const described = `${template}?${new URLSearchParams(pageQuery as Record<string, string>).toString()}`;
            return requireData(
              await get(template, { params: { path: pathParams, query: pageQuery }, signal }),
              "GET",
              described,
            );
          },
          concurrency === undefined ? {} : { concurrency },
        );
      } catch (error) {
        return rethrow(error);
      }
      return {
        pages: () => redactedIterable(paginator.pages(), redactor),
        [Symbol.asyncIterator]: () => redactedIterable(paginator, redactor)[Symbol.asyncIterator](),
        toArray: () => paginator.toArray().catch(rethrow),
      } as never;
    },
    waitForTask: (taskId, waitOptions) => waitForTask(fetchTask, taskId, waitOptions).catch(rethrow),
    waitForTasks: (taskIds, waitOptions) => waitForTasks(fetchTask, taskIds, waitOptions).catch(rethrow),
    rateLimiter,
  };
  return Object.assign(client, helpers) as unknown as PlatformClientOf<Paths>;
}
