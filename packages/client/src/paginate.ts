// `paginate(client, path)`: a function of its own rather than a method, so that only programs that
// walk lists bundle the walk (Octokit's `composePaginateRest`, AWS SDK v3's paginators).
import { type AnyPlatformClient, type PathsOf, rethrowing } from "./client.js";
import { internalsOf } from "./internals.js";
import type { SpecOperation } from "./operations.js";
import { createPaginator, type PaginateOptions, type Paginator } from "./pagination.js";
import type { Redactor } from "./redact.js";
import { requireData, withResponse } from "./results.js";

type GetOp<Paths, P extends keyof Paths> = Paths[P] extends { get: infer Op } ? Op : never;
type JsonOk<Op> = Op extends { responses: { 200: { content: { "application/json": infer B } } } } ? B : never;
type ParamsOf<Paths, P extends keyof Paths> =
  GetOp<Paths, P> extends { parameters: infer Params } ? Params : never;

/** The paths the spec marks as paginated (x-pagination), within these paths. */
export type ListPaths<Paths> = Extract<
  keyof Paths,
  Extract<SpecOperation, { method: "get"; pagination: object }>["path"]
>;
export type PageOf<Paths, P extends keyof Paths> = JsonOk<GetOp<Paths, P>>;
export type ItemOf<Paths, P extends keyof Paths> =
  PageOf<Paths, P> extends { results?: readonly (infer I)[] } ? I : never;

export interface PaginateInit<Paths, P extends keyof Paths> extends PaginateOptions {
  params?: {
    query?: ParamsOf<Paths, P> extends { query?: infer Q } ? Q : never;
    path?: ParamsOf<Paths, P> extends { path?: infer Pp } ? Pp : never;
  };
}

/** Items of `source`, with any error it throws redacted. */
async function* redactedIterable<T>(source: AsyncIterable<T>, redactor: Redactor): AsyncGenerator<T> {
  try {
    yield* source;
  } catch (error) {
    throw redactor.error(error);
  }
}

/**
 * Walks a list operation of the client's (offset or page pagination, as the spec's x-pagination
 * says): `for await (const item of paginate(client, path))`, or `.pages()` for whole pages, each
 * with the answer it came in as `page.response`. Every page is one of the client's own calls
 * (checked, paced, retried). Throws ApiError subclasses for failed pages and PaginationError when
 * the server contradicts itself; errors are redacted of the client's keys.
 */
export function paginate<Client extends AnyPlatformClient, P extends ListPaths<PathsOf<Client>>>(
  client: Client,
  path: P,
  init: PaginateInit<PathsOf<Client>, P> = {},
): Paginator<ItemOf<PathsOf<Client>, P>, PageOf<PathsOf<Client>, P>> {
  const { redactor, send } = internalsOf(client, "paginate");
  const rethrow = rethrowing(redactor);
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
        const result = await send("GET", template, {
          params: { path: pathParams, query: pageQuery },
          signal,
        });
        return withResponse(requireData(result, "GET", described), result.response);
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
}
