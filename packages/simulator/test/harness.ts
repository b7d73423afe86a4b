// Builds a simulator for a test and calls it: in-process through Fastify's inject (the same routes,
// hooks, checks and answers, without a socket: createTestSimulator), or over real HTTP to 127.0.0.1
// where a test is about the socket (startTestSimulator). Every answer of the API surface is
// validated against the bundled spec; an answer that breaks the spec fails the test that saw it.
// Calls are typed by path: `t.call("GET", "/cloud/v1/regions")` answers the body listRegions
// documents (or the simulator's error body), from the spec's generated types.

import {
  createSpecValidator,
  loadBundle,
  loadModel,
  matchOperation,
  taskPollingOf,
  tokenScheme,
} from "@platform-api/spec";
import type { components, inferredRequired, operations, paths } from "@platform-api/spec/generated/openapi";
import { expect } from "vitest";
import { createSimulator, type Simulator, type SimulatorOptions, startSimulator } from "../src/index.js";
import { taskStatesOf } from "../src/tasks/engine.js";

const doc = loadBundle();
const model = loadModel();
/** What precedes a token in its header, as the spec's client token scheme says (both schemes alike). */
export const { tokenPrefix } = tokenScheme(model, "APIKey");

/** The bundled spec's task states by their role in the simulator's task engine. */
export const TASK_STATES = taskStatesOf(taskPollingOf(model));
const validator = createSpecValidator(doc, model);

type Method = "GET" | "PUT" | "POST" | "DELETE" | "PATCH";

/** "/cloud/v1/tasks/{task_id}" as the concrete paths it stands for: `/cloud/v1/tasks/${string}`. */
type Concrete<Template extends string> = Template extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${Concrete<Tail>}`
  : Template;
type WithoutQuery<Path extends string> = Path extends `${infer Bare}?${string}` ? Bare : Path;
type TemplateOf<Path extends string> = {
  [Template in keyof paths]: WithoutQuery<Path> extends Concrete<Template> ? Template : never;
}[keyof paths];
type OperationAt<Path extends string, M extends Method> = paths[TemplateOf<Path>] extends infer Item
  ? Item extends Record<Lowercase<M>, infer Operation>
    ? Operation
    : never
  : never;

type ContentOf<Response> = Response extends { content: { "application/json": infer Body } }
  ? Body
  : undefined;
type SuccessBody<Operation> = Operation extends { responses: infer Responses }
  ? ContentOf<Responses[Extract<keyof Responses, 200 | 201 | 202 | 204 | "2XX">]>
  : never;

/** The task list's body, which the seed does not show: the simulator's envelope (README). */
export interface TaskList {
  count: number;
  results: components["schemas"]["Task"][];
}

/** The simulator's error body. */
export interface ErrorBody {
  message: string;
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The component schema a type is, among those that require fields by inference. */
type InferredSchemaOf<T> = {
  [N in keyof inferredRequired]: Same<components["schemas"][N], T> extends true ? N : never;
}[keyof inferredRequired];
type DescribedMembers<T> = { [K in keyof T]: Described<T[K]> };
/**
 * A body as the description writes it: the generated types leave the fields the description
 * requires only by inference optional (the live platform may omit them), but every answer here
 * was validated against the description itself, so they are present.
 */
type Described<T> = T extends readonly (infer Item)[]
  ? Described<Item>[]
  : T extends object
    ? [InferredSchemaOf<T>] extends [never]
      ? DescribedMembers<T>
      : Omit<DescribedMembers<T>, inferredRequired[InferredSchemaOf<T>]> & {
          [K in Extract<inferredRequired[InferredSchemaOf<T>], keyof T>]-?: Described<
            Exclude<T[K], undefined>
          >;
        }
    : T;
type Shown<Operation> =
  Same<Operation, operations["listTasks"]> extends true ? TaskList : SuccessBody<Operation>;

/** What a test reads of an answer: the documented success body, or the error body beside it. */
export type BodyAt<Path extends string, M extends Method> = [OperationAt<Path, M>] extends [never]
  ? Partial<ErrorBody>
  : [Shown<OperationAt<Path, M>>] extends [undefined]
    ? Partial<ErrorBody> | undefined
    : Described<Shown<OperationAt<Path, M>>> & Partial<ErrorBody>;

export interface Answer<Body> {
  status: number;
  headers: Headers;
  body: Body;
}

export interface CallOptions {
  /** Token to send after the scheme's prefix; null sends no Authorization header. Default: the client token. */
  token?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string | number | (string | number)[]>;
  body?: unknown;
  /** Sent as is instead of `body` (for bodies that are not JSON). */
  rawBody?: string;
}

export interface TestSimulator {
  sim: Simulator;
  call<M extends Method, Path extends string>(
    method: M,
    path: Path,
    options?: CallOptions,
  ): Promise<Answer<BodyAt<Path, M>>>;
  /** A call to the admin surface (`/_sim/…`, not part of the spec), whose body the test names. */
  admin<Body>(method: Method, path: `/_sim${string}`, options?: CallOptions): Promise<Answer<Body>>;
  /** Operation ids whose responses were seen (and validated). */
  seen: Set<string>;
  close(): Promise<void>;
}

/** What a test's call goes through: one request in, the answer's status, headers and text out. */
type Transport = (request: {
  method: Method;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
}) => Promise<{ status: number; headers: Headers; text: string }>;

/** A simulator listening on 127.0.0.1:<free port>, called over real HTTP: for tests of the socket. */
export async function startTestSimulator(options: SimulatorOptions = {}): Promise<TestSimulator> {
  const sim = await startSimulator({ port: 0, env: {}, ...options });
  return testSimulator(sim, new URL(sim.url), async ({ method, url, headers, body }) => {
    const response = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(10_000) });
    return { status: response.status, headers: response.headers, text: await response.text() };
  });
}

/** A simulator called in-process through app.inject(): everything but the socket, at a fraction of the cost. */
export async function createTestSimulator(options: SimulatorOptions = {}): Promise<TestSimulator> {
  const sim = await createSimulator({ env: {}, ...options });
  return testSimulator(sim, new URL("http://127.0.0.1"), async ({ method, url, headers, body }) => {
    const answer = await sim.app.inject({ method, url: url.pathname + url.search, headers, payload: body });
    const answered = new Headers();
    for (const [name, value] of Object.entries(answer.headers))
      for (const v of [value ?? []].flat()) answered.append(name, String(v));
    return { status: answer.statusCode, headers: answered, text: answer.body };
  });
}

function testSimulator(sim: Simulator, base: URL, transport: Transport): TestSimulator {
  const seen = new Set<string>();
  const send = async (
    method: Method,
    path: string,
    { token, headers = {}, query, body, rawBody }: CallOptions = {},
  ): Promise<Answer<unknown>> => {
    const url = new URL(path, base);
    for (const [name, value] of Object.entries(query ?? {})) {
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
    }
    const sentToken = token === undefined ? sim.apiKey : token;
    const response = await transport({
      method,
      url,
      headers: {
        ...(sentToken === null ? {} : { Authorization: `${tokenPrefix}${sentToken}` }),
        // The admin surface takes a write from loopback only as JSON, with a body or without.
        ...(body !== undefined || (path.startsWith("/_sim") && method !== "GET")
          ? { "Content-Type": "application/json" }
          : {}),
        ...headers,
      },
      body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const { text } = response;
    const parsed: unknown = text === "" ? undefined : JSON.parse(text);
    const operation = path.startsWith("/_sim")
      ? undefined
      : matchOperation(model, method, url.pathname)?.operation;
    if (operation) {
      seen.add(operation.operationId);
      const problems = validator.validateResponse({
        method,
        path: operation.path,
        status: response.status,
        contentType: response.headers.get("content-type"),
        body: parsed,
        hasBody: text !== "",
      });
      expect(problems, `${method} ${url.pathname}${url.search} answered ${response.status} off-spec`).toEqual(
        [],
      );
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
  return {
    sim,
    // The body was validated against the operation's schemas above; its type is theirs.
    call: (method, path, options) => send(method, path, options) as Promise<Answer<never>>,
    admin: (method, path, options) => send(method, path, options) as Promise<Answer<never>>,
    seen,
    close: () => sim.close(),
  };
}

/** An item of the offset list at a path, by the list's generated type. */
type OffsetItem<Path extends string> = BodyAt<Path, "GET"> extends { results: (infer Item)[] } ? Item : never;

/** GETs a whole offset list by increasing offset by limit until offset >= count. */
export async function walkOffsetList<Path extends string>(
  t: TestSimulator,
  path: Path,
  limit: number,
  query: CallOptions["query"] = {},
  token?: string,
): Promise<{ items: OffsetItem<Path>[]; counts: number[] }> {
  const items: OffsetItem<Path>[] = [];
  const counts: number[] = [];
  for (let offset = 0, pages = 0; pages < 100; pages++, offset += limit) {
    const answer = await t.call("GET", path as string, { query: { ...query, limit, offset }, token });
    expect(answer.status).toBe(200);
    // Validated against the list's schema by call(): an offset list of this path's items.
    const page = answer.body as unknown as { count: number; results: OffsetItem<Path>[] };
    expect(page.results.length).toBeLessThanOrEqual(limit);
    counts.push(page.count);
    items.push(...page.results);
    if (offset + limit >= page.count) break;
  }
  return { items, counts };
}
