// The simulator's HTTP server: Fastify, with one route per operation of the bundled spec, spec
// validation of every request, the platform's auth and rate limit, optional faults, and the admin
// surface under /_sim/ (not part of the platform).

import { setTimeout as sleep } from "node:timers/promises";
import rateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { registerAdminRoutes } from "./admin.js";
import { authenticate } from "./auth.js";
import { answerClientError } from "./client-errors.js";
import { type Clock, createClock } from "./clock.js";
import { ApiError } from "./errors.js";
import { drawFault, type Faults, parseFaults } from "./faults.js";
import { createFrameworkErrorHandler } from "./framework-errors.js";
import { HANDLERS } from "./handlers/index.js";
import { integerParameterCheck } from "./integer-parameters.js";
import { registerJsonBodyParser, unsupportedMediaType } from "./json-body.js";
import { LIMITS } from "./limits.js";
import { documents, operationsOf, type SpecOperation } from "./operations.js";
import { checkOptions, DEFAULTS, type SimulatorOptions } from "./options.js";
import { createRandom, type Random } from "./random.js";
import { SlidingWindowStore } from "./sliding-window-store.js";
import { createSpecAjv, loadSpec, type OpenApiDocument } from "./spec.js";
import { type Caller, Store, type TaskDuration } from "./store.js";
import { describeValidationErrors, type RequestPart } from "./validation-message.js";
import { createDefaultWorld } from "./world/default-world.js";
import { checkWorld, loadWorldFile } from "./world/load-world.js";
import { applyTokens, type TokenInfo } from "./world/tokens.js";
import type { World } from "./world/types.js";

export interface Simulator {
  /** Base URL of the API surface, e.g. http://127.0.0.1:4020 */
  url: string;
  host: string;
  port: number;
  /** The tokens it accepts, with where each came from. */
  tokens: TokenInfo[];
  /** The client token (what `createClient({ apiKey })` needs). */
  apiKey: string;
  /** The reseller token. */
  resellerApiKey: string;
  /** The current store (replaced by reset()). */
  readonly store: Store;
  clock: Clock;
  /** Moves the simulated clock forward; tasks progress accordingly. */
  advance(seconds: number): void;
  /** Back to the starting world (same random seed, so the same ids again). */
  reset(): void;
  /** Replaces the fault spec ("" for none). */
  setFaults(spec: string): void;
  /** The Fastify instance, for wrappers that need a hook (conformance's faulty variants). */
  app: FastifyInstance;
  close(): Promise<void>;
}

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    operation?: SpecOperation;
  }
}

/** Builds the simulator and listens. Port 0 picks a free port. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const simulator = await createSimulator(options);
  try {
    await simulator.app.listen({ host: options.host ?? DEFAULTS.host, port: options.port ?? DEFAULTS.port });
  } catch (error) {
    await simulator.app.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new Error(
        `Port ${options.port ?? DEFAULTS.port} is in use; pick another with --port (0 picks a free one).`,
      );
    throw error;
  }
  const address = simulator.app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const host = options.host ?? DEFAULTS.host;
  const shown = host.includes(":") ? `[${host}]` : host;
  return Object.assign(simulator, { url: `http://${shown}:${port}`, host, port });
}

/** Builds the simulator without listening (`app.inject` works on it). */
export async function createSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  checkOptions(options);
  const doc: OpenApiDocument = options.spec ?? loadSpec();
  const operations = operationsOf(doc);
  checkHandlers(operations);

  const env = options.env ?? process.env;
  const baseWorld: World = options.seedFile
    ? loadWorldFile(options.seedFile, doc)
    : options.world
      ? checkWorld(options.world, doc, "world option")
      : createDefaultWorld(options.randomSeed ?? DEFAULTS.randomSeed);
  const { world, tokens } = applyTokens(baseWorld, {
    apiKey: options.apiKey,
    resellerApiKey: options.resellerApiKey,
    env,
    fromSeed: Boolean(options.seedFile || options.world),
  });

  const clock = createClock();
  const randomSeed = options.randomSeed ?? DEFAULTS.randomSeed;
  const durations = taskDurations(doc);
  // Faults draw from a source of their own, so switching them on leaves the world's ids alone.
  const faultRandom: Random = createRandom(faultSeed(randomSeed));
  const newStore = () =>
    new Store(world, {
      clock,
      random: createRandom(randomSeed),
      timeScale: options.timeScale ?? DEFAULTS.timeScale,
      durations,
      taskRetentionMs: (options.taskRetentionSeconds ?? DEFAULTS.taskRetentionSeconds) * 1000,
    });
  let store = newStore();
  let faults: Faults = parseFaults(options.faults);
  const retryAfter = options.retryAfter ?? DEFAULTS.retryAfter;
  const limit = options.rateLimit ?? DEFAULTS.rateLimit;

  // HEAD routes are off: the spec documents no HEAD operation.
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const app = Fastify({
    logger: options.log ? { level: "info" } : false,
    forceCloseConnections: true,
    exposeHeadRoutes: false,
    bodyLimit: LIMITS.bodyBytes,
    // Long enough that a path parameter is judged by its route (auth first, then its schema).
    routerOptions: { maxParamLength: LIMITS.pathParameterLength },
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: DEFAULTS.keepAliveTimeoutSeconds * 1000,
    // Node checks request timeouts on this interval (30 s by default): a quarter of the timeout
    // keeps a 408 close to its documented time.
    http: {
      maxHeaderSize: LIMITS.headerBytes,
      headersTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.max(1, Math.min(1000, Math.floor(requestTimeoutMs / 4))),
    },
    clientErrorHandler: (error, socket) => answerClientError(error, socket, requestTimeoutMs),
    frameworkErrors: createFrameworkErrorHandler(operations, () => store),
  });
  registerJsonBodyParser(app);
  const paramAjv = createSpecAjv(doc, { coerce: true });
  const bodyAjv = createSpecAjv(doc, { coerce: false });
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? bodyAjv : paramAjv).compile(schema as object),
  );
  app.decorateRequest("caller", null);
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: `No operation at ${request.method} ${request.url.split("?")[0]}.` });
  });

  if (limit > 0) {
    await app.register(rateLimit, {
      global: true,
      max: limit,
      timeWindow: 1000,
      store: SlidingWindowStore,
      hook: "onRequest",
      keyGenerator: (request) => request.ip,
      addHeadersOnExceeding: {
        "x-ratelimit-limit": false,
        "x-ratelimit-remaining": false,
        "x-ratelimit-reset": false,
      },
      addHeaders: {
        "x-ratelimit-limit": false,
        "x-ratelimit-remaining": false,
        "x-ratelimit-reset": false,
        "retry-after": retryAfter,
      },
      errorResponseBuilder: (request, context) =>
        Object.assign(
          new Error(
            `Too many requests: more than ${context.max} per second from ${request.ip}. Slow down and retry after ${context.after}.`,
          ),
          { statusCode: 429 },
        ),
    });
  }

  // Faults come first: an injected answer is what the caller meets, whatever it sent.
  const injectFaults = async (request: FastifyRequest, reply: FastifyReply) => {
    if (faults.latency) await sleep(faultRandom.int(faults.latency.min, faults.latency.max));
    const draw = drawFault(faults, faultRandom.next);
    if (draw.kind === "reset") {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (draw.kind === "status") {
      if (draw.status === 429 && retryAfter) reply.header("retry-after", "1");
      throw new ApiError(draw.status, `Injected fault: ${draw.status} (simulator --faults).`);
    }
    return undefined;
  };

  for (const operation of operations) {
    const handler = HANDLERS[operation.operationId];
    if (!handler) throw new Error(`No handler for ${operation.operationId}`); // checked above; keeps the type narrow
    app.route({
      method: operation.method,
      url: operation.routePath,
      schema: operation.schema,
      config: { operation },
      onRequest: [injectFaults],
      // Auth before the body is read or validated: an unauthenticated request learns nothing more.
      preParsing: async (request) => {
        request.caller = authenticate(request.raw.rawHeaders, store, operation);
      },
      preValidation: integerParameterCheck(operation),
      handler: async (request, reply) => {
        store.settle();
        const url = request.url;
        const result = handler({
          params: request.params as Record<string, unknown>,
          query: request.query as Record<string, unknown>,
          body: request.body ?? {},
          rawQuery: url.includes("?") ? url.slice(url.indexOf("?") + 1) : "",
          caller: request.caller as Caller,
          store,
        });
        const status = result.status ?? 200;
        if (!documents(operation, status))
          throw new Error(`${operation.operationId} answered ${status}, which the spec does not document`);
        reply.code(status);
        return result.body === undefined ? reply.send() : reply.send(result.body);
      },
    });
  }

  registerAdminRoutes(app, {
    store: () => store,
    clock,
    reset: () => {
      store = newStore();
    },
    setFaults: (spec) => {
      faults = parseFaults(spec);
    },
  });

  await app.ready();

  const client = tokens.find((t) => t.label === "client");
  const reseller = tokens.find((t) => t.label === "reseller");
  return {
    url: "",
    host: options.host ?? DEFAULTS.host,
    port: 0,
    tokens,
    apiKey: client?.token ?? "",
    resellerApiKey: reseller?.token ?? "",
    get store() {
      return store;
    },
    clock,
    advance: (seconds) => clock.advance(seconds * 1000),
    reset: () => {
      store = newStore();
    },
    setFaults: (spec) => {
      faults = parseFaults(spec);
    },
    app,
    close: () => app.close(),
  };
}

function sendError(error: any, request: FastifyRequest, reply: FastifyReply) {
  const operation = request.routeOptions.config?.operation;
  if (error instanceof ApiError) return reply.code(error.status).send({ message: error.message });
  if (Array.isArray(error.validation)) {
    const part = error.validationContext as RequestPart;
    const message = describeValidationErrors(error.validation, part, operation?.parameterSchemas ?? {});
    // An operation that documents no 400 (getTask: a task_id that is no UUID) names no such resource.
    const status = operation && !documents(operation, 400) ? 404 : 400;
    return reply.code(status).send({ message });
  }
  if (error.statusCode === 429) return reply.code(429).send({ message: error.message });
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
    return reply.code(400).send({ message: unsupportedMediaType(request.headers["content-type"]) });
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own refusals (bad JSON, unsupported media type, body too large) are body errors.
    return reply.code(400).send({ message: `The request body has errors: ${error.message}` });
  }
  request.log.error(error);
  return reply.code(500).send({ message: `Internal simulator error: ${error.message}` });
}

/** A seed for the faults' random source, apart from the world's and stable for a given seed. */
function faultSeed(seed: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ 0x85ebca6b) >>> 0;
}

function checkHandlers(operations: SpecOperation[]): void {
  const inSpec = new Set(operations.map((o) => o.operationId));
  const missing = operations
    .filter((o) => !HANDLERS[o.operationId])
    .map((o) => `${o.operationId} (${o.method} ${o.path})`);
  const unknown = Object.keys(HANDLERS).filter((id) => !inSpec.has(id));
  if (missing.length > 0)
    throw new Error(`The spec has operations without a simulator handler: ${missing.join(", ")}.`);
  if (unknown.length > 0)
    throw new Error(`Simulator handlers name operations the spec does not have: ${unknown.join(", ")}.`);
}

function taskDurations(doc: OpenApiDocument): Record<string, TaskDuration> {
  const durations: Record<string, TaskDuration> = {};
  for (const item of Object.values<any>(doc.paths ?? {})) {
    for (const operation of Object.values<any>(item)) {
      for (const row of operation?.["x-task-polling"]?.intervals ?? []) {
        if (row.taskType) durations[row.taskType] = row.typicalDurationSeconds;
      }
    }
  }
  return durations;
}
