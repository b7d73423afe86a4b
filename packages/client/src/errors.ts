// Every error the client raises. None of them holds a request, its headers or the API key: only
// what the caller needs to act (status, method, path, the server's body and headers, the attempt
// count).
// Fields set in a constructor are `declare`d: no class-field declaration is emitted for them,
// which keeps the browser bundle small (the constructors set every one of them).

/**
 * A client was created with options it cannot work with. Thrown by `createClient`, before any
 * request, so that a bad key is never discovered through a 401. The message says what was wrong
 * and what is allowed; it never contains the key itself.
 */
export class ClientConfigError extends Error {
  override name = "ClientConfigError";
  /** the option that was wrong, e.g. "apiKey" */
  declare readonly option: string;

  constructor(option: string, message: string) {
    super(`${option}: ${message}`);
    this.option = option;
  }
}

/** A parameter breaks the description's bounds or enum; raised before the request is sent. */
export class ValidationError extends Error {
  override name = "ValidationError";
  /** the parameter, e.g. "limit" */
  declare readonly parameter: string;
  /** the value that was refused */
  declare readonly value: unknown;
  /** what is allowed, e.g. "an integer from 1 to 1000" */
  declare readonly allowed: string;
  constructor(message: string, parameter: string, value: unknown, allowed: string) {
    super(message);
    this.parameter = parameter;
    this.value = value;
    this.allowed = allowed;
  }
}

export interface ApiErrorInit {
  status?: number | undefined;
  method: string;
  /** the URL path (with its query string) relative to the base URL */
  path: string;
  body?: unknown;
  attempts: number;
  cause?: unknown;
  /** how long the server asked to wait, from Retry-After or retry-after-ms */
  retryAfterMs?: number | undefined;
  /** where a redirect pointed, resolved against the request's URL */
  location?: string | undefined;
  /** the `maxResponseBytes` an answer went past */
  limit?: number;
  /** the answer's Content-Type, when it had one */
  contentType?: string | undefined;
  /** the start of the answer's body, redacted */
  excerpt?: string;
  /** the answer's headers, when an answer came */
  headers?: Headers | undefined;
}

/**
 * An answer's headers as a plain record (lower-case names, repeated ones joined by ", "): plain
 * so that the client's redactor reaches every name and value, and JSON.stringify and inspect show
 * them (a Headers object shows as `{}`).
 */
function headerRecord(headers: Headers): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
  });
  return out;
}

/** Base of every error about a request: an answer that was not a success, or no answer at all. */
export class ApiError extends Error {
  override name = "ApiError";
  /** HTTP status; undefined when no answer arrived (connection, timeout, abort) */
  declare readonly status: number | undefined;
  declare readonly method: string;
  declare readonly path: string;
  /** the server's error body, parsed as JSON when it was JSON (its shape is not documented); the keys redacted */
  declare readonly body: unknown;
  /** how many attempts were made, retries included */
  declare readonly attempts: number;
  /**
   * the answer's headers (lower-case names, e.g. `headers["x-request-id"]`), the keys redacted from
   * names and values; undefined when no answer arrived
   */
  declare readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(message: string, init: ApiErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.body = init.body;
    this.attempts = init.attempts;
    this.headers = init.headers && headerRecord(init.headers);
  }

  /** What JSON.stringify shows: the name, the message and every field of the class (`cause` left out). */
  toJSON() {
    return Object.assign({ name: this.name, message: this.message }, this);
  }
}

/** 400: the request body or parameters have errors. */
export class BadRequestError extends ApiError {
  override name = "BadRequestError";
}
/** 401: the token is missing, wrong or expired. */
export class AuthenticationError extends ApiError {
  override name = "AuthenticationError";
}
/** 403: the token lacks permission for the operation. */
export class PermissionDeniedError extends ApiError {
  override name = "PermissionDeniedError";
}
/** 404: the resource does not exist or is in a different region. */
export class NotFoundError extends ApiError {
  override name = "NotFoundError";
}
/** 429: too many requests, after the client's retries. */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  /** how long the server asked to wait, when it said so */
  declare readonly retryAfterMs: number | undefined;
  constructor(message: string, init: ApiErrorInit) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}
/** 5xx: a server-side problem, after the client's retries where the method allows them. */
export class ServerError extends ApiError {
  override name = "ServerError";
}
/** No answer: the connection failed or was reset. */
export class ConnectionError extends ApiError {
  override name = "ConnectionError";
}
/** No answer within the attempt's timeout or the overall deadline. */
export class TimeoutError extends ApiError {
  override name = "TimeoutError";
}
/** The caller's AbortSignal cancelled the request or a wait between attempts. */
export class AbortError extends ApiError {
  override name = "AbortError";
}
/**
 * The server answered with a redirect (301, 302, 303, 307, 308). The client never follows one: the
 * platform documents none, a write must not be replayed to another address, and the key must not
 * go there. Usually `baseUrl` is wrong (http instead of https, a proxy, an old host).
 */
export class RedirectError extends ApiError {
  override name = "RedirectError";
  /** where the redirect pointed (absolute), when the runtime shows it (browsers hide it) */
  declare readonly location: string | undefined;
  constructor(message: string, init: ApiErrorInit) {
    super(message, init);
    this.location = init.location;
  }
}

/**
 * The answer's body is larger than `maxResponseBytes`: its Content-Length says so, or that many
 * bytes arrived before its end. Thrown as soon as it is known, with the rest left unread; not
 * retried (the same request would get the same answer).
 */
export class ResponseTooLargeError extends ApiError {
  override name = "ResponseTooLargeError";
  /** the limit, in bytes (`maxResponseBytes`) */
  declare readonly limit: number;
  constructor(message: string, init: ApiErrorInit & { limit: number }) {
    super(message, init);
    this.limit = init.limit;
  }
}

/** How much of a body an InvalidResponseError quotes, in characters. */
export const BODY_EXCERPT_CHARS = 200;

/**
 * A success answer whose body is not JSON (a proxy's HTML error page, a truncated body), where
 * the operation answers JSON. `cause` is the parser's error.
 */
export class InvalidResponseError extends ApiError {
  override name = "InvalidResponseError";
  /** the answer's Content-Type, when it had one */
  declare readonly contentType: string | undefined;
  /** the body's first BODY_EXCERPT_CHARS characters, the keys redacted, control characters shown as U+FFFD */
  declare readonly excerpt: string;
  constructor(message: string, init: ApiErrorInit & { excerpt: string }) {
    super(message, init);
    this.contentType = init.contentType;
    this.excerpt = init.excerpt;
  }
}

/** The error class for a status that is not a success. */
export function errorForStatus(message: string, init: ApiErrorInit & { status: number }): ApiError {
  const { status } = init;
  if (status === 400) return new BadRequestError(message, init);
  if (status === 401) return new AuthenticationError(message, init);
  if (status === 403) return new PermissionDeniedError(message, init);
  if (status === 404) return new NotFoundError(message, init);
  if (status === 429) return new RateLimitError(message, init);
  if (status >= 500) return new ServerError(message, init);
  return new ApiError(message, init);
}

/** The server contradicted itself while a list was walked (count changed, an item repeated, …). */
export class PaginationError extends Error {
  override name = "PaginationError";
  declare readonly path: string;
  constructor(message: string, path: string) {
    super(message);
    this.path = path;
  }
}

/** What a failed task tells; the platform's documentation lists these fields without saying each is always present. */
export interface TaskLike {
  id?: string;
  task_type?: string;
  state?: string;
  error?: string | null;
}

/** A task ended in a terminal state other than FINISHED (the seed's ERROR); nothing from it was created. */
export class TaskFailedError extends Error {
  override name = "TaskFailedError";
  declare readonly task: TaskLike;
  /** the task's `error` text */
  declare readonly reason: string;
  /** the quota the reason names, when it names one (e.g. "volume_size_limit") */
  declare readonly quota: string | undefined;
  /** the excess amount the reason names, when it names one */
  declare readonly excess: number | undefined;
  constructor(task: TaskLike) {
    const reason = task.error ?? "no reason given";
    super(`Task ${task.id ?? "(no id given)"} (${task.task_type ?? "no task_type given"}) failed: ${reason}`);
    this.task = task;
    this.reason = reason;
    const parsed = parseQuotaReason(reason);
    this.quota = parsed.quota;
    this.excess = parsed.excess;
  }
}

/** A task did not reach a terminal state (x-task-polling's) before the deadline. */
export class TaskTimeoutError extends Error {
  override name = "TaskTimeoutError";
  declare readonly taskId: string;
  declare readonly timeoutMs: number;
  /** the last state seen, if any poll succeeded */
  declare readonly lastState: string | undefined;
  constructor(taskId: string, timeoutMs: number, lastState: string | undefined) {
    super(
      `Task ${taskId} did not finish within ${timeoutMs} ms (last state: ${lastState ?? "unknown"}); it may still finish later.`,
    );
    this.taskId = taskId;
    this.timeoutMs = timeoutMs;
    this.lastState = lastState;
  }
}

/**
 * The platform says a quota error "names the quota and the excess amount" without showing the
 * wording, so this reads the common shapes and leaves a field undefined when unsure.
 */
export function parseQuotaReason(reason: string): { quota: string | undefined; excess: number | undefined } {
  const quota = /\b([a-z0-9]+(?:_[a-z0-9]+)*_(?:limit|count|size))\b/.exec(reason)?.[1];
  const excess =
    /exceed(?:s|ed|ing)?\s+(?:it\s+)?by\s+(\d+(?:\.\d+)?)/i.exec(reason)?.[1] ??
    /\bexcess(?:\s+of|:)?\s+(\d+(?:\.\d+)?)/i.exec(reason)?.[1] ??
    /\bover\s+by\s+(\d+(?:\.\d+)?)/i.exec(reason)?.[1];
  return { quota, excess: excess === undefined ? undefined : Number(excess) };
}
