import { authorization, matchOperation, type RuntimeOperation, usesScheme } from "@platform-api/spec/model";
import createFetchClient, { type Client } from "openapi-fetch";
import { warnInBrowser } from "./browser-warning.js";
import { rememberClient } from "./internals.js";
import { METHODS, operationFacts, SPEC } from "./operations.js";
import { type ClientOptions, givenKeys, type ResolvedOptions, resolveOptions } from "./options.js";
import { createRedactor, type Redactor } from "./redact.js";
import { type FetchResult, notJsonError } from "./results.js";
import { API_KEY, RESELLER_API_KEY, RESELLER_SCHEME } from "./tokens.js";
import { RateLimiter } from "./transport/rate-limiter.js";
import {
  CALL_CONTEXT,
  type CallContext,
  createTransport,
  type Logger,
  type Transport,
} from "./transport/transport.js";
import { type RequestParams, validateParams } from "./validation.js";

/**
 * Puts the reseller token on the operations whose security is the spec's ResellerAPIKey. The
 * client's calls say which operation a call is; for other calls (a concrete path, a request that
 * a middleware of the caller's replaced) the URL, relative to the base URL, is matched against the
 * spec's operations.
 */
function resellerTokenFor(baseUrl: string, resellerApiKey: string) {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  const value = authorization(RESELLER_API_KEY, resellerApiKey);
  return (method: string, url: string, headers: Headers, context: CallContext | undefined) => {
    const reseller =
      context?.reseller ??
      usesReseller(matchOperation(SPEC, method, new URL(url).pathname.slice(basePath.length))?.operation);
    if (reseller) headers.set(RESELLER_API_KEY.headerName, value);
  };
}

const usesReseller = (operation: RuntimeOperation | undefined): boolean =>
  operation !== undefined && usesScheme(operation, RESELLER_SCHEME);

/**
 * A type-only brand: each client type carries its `paths`, so the helpers (`paginate`,
 * `waitForTask`) read them from the client they are given. No such property exists at run time.
 */
declare const PATHS: unique symbol;

/** The `paths` a client is typed over (its product's, or the whole API's). */
export type PathsOf<Client> = Client extends { readonly [PATHS]?: infer Paths } ? NonNullable<Paths> : never;

/** What the client adds to openapi-fetch for every set of paths. */
export interface PlatformHelpers<Paths extends {}> {
  /** The limiter shared by every call of this client (undefined when `rateLimit: false`). */
  readonly rateLimiter: RateLimiter | undefined;
  /** The client's paths, for the helpers' types only (never set). */
  readonly [PATHS]?: Paths;
}

export type PlatformClientOf<Paths extends {}> = Client<Paths, "application/json"> & PlatformHelpers<Paths>;

/** A client made by `createClient`, of any paths: what the helpers take. */
export type AnyPlatformClient = PlatformHelpers<object>;

/** The logger at the client's level, with every line redacted of the keys. */
const redactedLogger = ({ logger, logLevel }: ResolvedOptions, redactor: Redactor): Logger | undefined =>
  logger && logLevel !== "off"
    ? {
        warn: (line) => logger.warn?.(redactor.text(line)),
        // Absent below "debug": the transport then never builds a debug line.
        ...(logLevel === "debug" && { debug: (line: string) => logger.debug?.(redactor.text(line)) }),
      }
    : undefined;

/** What the client throws: the error, redacted of the keys. */
export const rethrowing =
  (redactor: Redactor) =>
  (error: unknown): never => {
    throw redactor.error(error);
  };

/** The resolved options; a refused option's error names none of the keys given. */
function resolveRedacted(options: ClientOptions | undefined): ResolvedOptions {
  try {
    return resolveOptions(options);
  } catch (error) {
    // A refused option's message may quote its value: never a key, wherever it was put.
    const given = givenKeys(options).filter((key): key is string => typeof key === "string");
    throw createRedactor(given).error(error);
  }
}

function transportFor(resolved: ResolvedOptions, redactor: Redactor, rateLimiter: RateLimiter | undefined) {
  return createTransport({
    fetch: resolved.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    retry: resolved.retry,
    timeoutMs: resolved.timeoutMs,
    deadlineMs: resolved.deadlineMs,
    maxResponseBytes: resolved.maxResponseBytes,
    limiter: rateLimiter,
    logger: redactedLogger(resolved, redactor),
    // The client token is a default header; only reseller operations swap in the reseller token.
    ...(resolved.resellerApiKey
      ? { prepareHeaders: resellerTokenFor(resolved.baseUrl, resolved.resellerApiKey) }
      : {}),
  });
}

type Init = { params?: RequestParams; signal?: AbortSignal | null; parseAs?: string };
/** One call of openapi-fetch's (a method's, or `request()`'s), given the init to send with. */
type Sending = (init: Init) => Promise<unknown>;
/** A call as the client makes it: `send` (openapi-fetch's) with what is said below. */
type Call = (method: string, path: string, init: Init | undefined, send: Sending) => Promise<unknown>;

/**
 * Around every call of openapi-fetch's, its methods and `request()` alike: checks the parameters
 * against the spec before openapi-fetch builds the request, tells the transport about the call
 * (caller signal, reseller token, controller reuse once the body is read), redacts the server's
 * error body and turns openapi-fetch's JSON parse failure into InvalidResponseError. Errors come
 * back redacted. The types stay openapi-fetch's own.
 *
 * Not openapi-fetch middleware (`client.use`), although the checks and the token would fit there:
 * a client with any middleware costs openapi-fetch an id, a frozen options object and an awaited
 * step per call (measured: a middleware doing nothing adds 4 to 7% to a bare call's CPU, of the 15%
 * the client may add in all), and this wrapper has to stay anyway: openapi-fetch reads and parses
 * the answer after the last middleware has run.
 */
function calling(validate: boolean, redactor: Redactor, transport: Transport): Call {
  const rethrow = rethrowing(redactor);
  // async, so a refused parameter is a rejected promise like every other failure of a call
  return async (method, path, init, send) => {
    const facts = operationFacts(method, path);
    if (validate) {
      try {
        validateParams(method, path, facts, init?.params);
      } catch (error) {
        rethrow(error);
      }
    }
    const stream = init?.parseAs === "stream";
    const context: CallContext = { callerSignal: init?.signal != null, reseller: facts?.reseller, stream };
    try {
      const result = (await send({ ...init, [CALL_CONTEXT]: context } as Init)) as { error?: unknown };
      // The server's error body, as handed back: redacted like an error's body.
      if (result?.error !== undefined) result.error = redactor.value(result.error);
      return result;
    } catch (error) {
      // openapi-fetch's JSON.parse refused the body the transport read.
      if (error instanceof SyntaxError && context.response)
        return rethrow(notJsonError(method, path, context.response, error, redactor.text));
      return rethrow(error);
    } finally {
      // A streamed body is still being read by the caller: its controller must stay its own.
      if (!stream) transport.releaseCall(context);
    }
  };
}

/**
 * A typed client over the given `paths`: the whole API's (no `product`), or one product's (its
 * `x-product`). The helpers (`paginate`, `waitForTask`) are functions of their own that take the
 * client, so a program that uses none of them does not bundle them.
 */
export function createPlatformClient<Paths extends {}>(
  options?: ClientOptions,
  product?: string,
): PlatformClientOf<Paths> {
  const resolved = resolveRedacted(options);
  warnInBrowser(resolved);
  // Whatever a server echoes back, no error or log line of this client holds either key.
  const redactor = createRedactor([resolved.apiKey, resolved.resellerApiKey]);
  const rateLimiter = resolved.rateLimit ? new RateLimiter(resolved.rateLimit) : undefined;
  const transport = transportFor(resolved, redactor, rateLimiter);
  const raw = createFetchClient<Paths, "application/json">({
    baseUrl: resolved.baseUrl,
    headers: { ...resolved.headers, [API_KEY.headerName]: authorization(API_KEY, resolved.apiKey) },
    fetch: transport.fetch,
  });
  const call = calling(resolved.validateParams, redactor, transport);
  const methods = raw as unknown as Record<
    (typeof METHODS)[number],
    (path: string, init: Init) => Promise<unknown>
  >;
  const client: Record<string, unknown> = {
    ...raw,
    request: (method: string, path: string, init?: Init) =>
      call(method.toUpperCase(), path, init, (sent) =>
        raw.request(method as never, path as never, sent as never),
      ),
  };
  for (const method of METHODS)
    client[method] = (path: string, init?: Init) =>
      call(method, path, init, (sent) => methods[method](path, sent));
  client.rateLimiter = rateLimiter;
  rememberClient(client, {
    product,
    redactor,
    send: (method, path, init) =>
      (client[method] as (path: string, init: object) => Promise<FetchResult<unknown>>)(path, init),
  });
  return client as unknown as PlatformClientOf<Paths>;
}
