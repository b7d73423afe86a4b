// The simulator: one Fastify app assembled from one plugin per rule of the README — errors in the
// platform's shape, the spec's request rate, and the API surface (faults, then the spec's routes
// with auth and request checks) — beside the admin surface. The description it serves and its
// model are built once here and handed to each.

import type { Server } from "node:http";
import type { Socket } from "node:net";
import { platformExtensions, taskPollingOf } from "@platform-api/spec";
import Fastify, { type FastifyHttpOptions, type FastifyInstance } from "fastify";
import { randomAdminToken } from "./admin-guard.js";
import { checkSecuritySchemes, sentAs } from "./auth.js";
import { answerClientError } from "./client-errors.js";
import { type Clock, createClock } from "./clock.js";
import { type Faults, parseFaults } from "./faults.js";
import { createFrameworkErrorHandler } from "./framework-errors.js";
import { checkExtensions } from "./handlers/extensions.js";
import { QUERY_RULES } from "./handlers/query-rules.js";
import { SIMULATOR_HEADER } from "./hints.js";
import { LIMITS } from "./limits.js";
import {
  ADMIN_TOKEN_VARIABLE,
  adminTokenProblem,
  checkOptions,
  DEFAULTS,
  type SimulatorOptions,
} from "./options.js";
import { type AdminOptions, adminPlugin } from "./plugins/admin.js";
import { corsPlugin } from "./plugins/cors.js";
import { errorsPlugin } from "./plugins/errors.js";
import { extensionRoutesPlugin } from "./plugins/extension-routes.js";
import { faultsPlugin } from "./plugins/faults.js";
import { rateLimitPlugin } from "./plugins/rate-limit.js";
import { checkHandlers, specRoutesPlugin } from "./plugins/spec-routes.js";
import { planQuery } from "./query.js";
import { createRandom } from "./random.js";
import { type ServedSpec, serveSpec } from "./spec.js";
import { Store } from "./store.js";
import { taskDurations } from "./tasks/durations.js";
import { taskStatesOf } from "./tasks/engine.js";
import { VERSION } from "./version.js";
import { createDefaultWorld } from "./world/default-world.js";
import { checkWorld, loadWorldFile } from "./world/load-world.js";
import { componentSchema } from "./world/spec-facts.js";
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
  /**
   * The admin token: sent as `X-Sim-Admin-Token`, it opens `/_sim/` to any caller (the option, else
   * $PLATFORM_API_SIM_ADMIN_TOKEN, else random per start).
   */
  adminToken: string;
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
  const spec = serveSpec(options.spec);
  checkSpec(spec);

  const randomSeed = options.randomSeed ?? DEFAULTS.randomSeed;
  const { world, tokens } = startingWorld(options, spec, randomSeed);
  const clock = createClock();
  const durationOf = taskDurations(spec.model, options.unlistedTaskSeconds ?? DEFAULTS.unlistedTaskSeconds);
  const newStore = () =>
    new Store(world, {
      spec,
      clock,
      random: createRandom(randomSeed),
      timeScale: options.timeScale ?? DEFAULTS.timeScale,
      durationOf,
      taskRetentionMs: (options.taskRetentionSeconds ?? DEFAULTS.taskRetentionSeconds) * 1000,
    });
  let store = newStore();
  const adminToken = resolveAdminToken(options);
  let faults: Faults = parseFaults(options.faults);
  const reset = () => {
    store = newStore();
  };
  const setFaults = (text: string) => {
    faults = parseFaults(text);
  };

  const app = Fastify(fastifyOptions(spec, options, () => store));
  await registerSurfaces(app, {
    spec,
    options,
    randomSeed,
    store: () => store,
    faults: () => faults,
    admin: { store: () => store, clock, reset, setFaults, limitFields: limitFieldsOf(spec), adminToken },
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
    adminToken,
    get store() {
      return store;
    },
    clock,
    advance: (seconds) => clock.advance(seconds * 1000),
    reset,
    setFaults,
    app,
    close: () => app.close(),
  };
}

/** The world the simulator starts from (a seed file, the world option or the default), with its tokens. */
function startingWorld(
  options: SimulatorOptions,
  spec: ServedSpec,
  randomSeed: number,
): { world: World; tokens: TokenInfo[] } {
  const baseWorld: World = options.seedFile
    ? loadWorldFile(options.seedFile, spec.doc)
    : options.world
      ? checkWorld(options.world, spec.doc, "world option")
      : createDefaultWorld(randomSeed, spec.doc);
  return applyTokens(baseWorld, {
    apiKey: options.apiKey,
    resellerApiKey: options.resellerApiKey,
    env: options.env ?? process.env,
    fromSeed: Boolean(options.seedFile || options.world),
  });
}

/** Fastify's settings: the simulator's bounds on requests, and errors in the platform's shape. */
function fastifyOptions(spec: ServedSpec, options: SimulatorOptions, store: () => Store) {
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  return {
    logger: options.log ? { level: "info" } : false,
    forceCloseConnections: true,
    // HEAD routes are off: the spec documents no HEAD operation.
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
    clientErrorHandler: (error: Error, socket: Socket) => answerClientError(error, socket, requestTimeoutMs),
    frameworkErrors: createFrameworkErrorHandler(spec.model, store),
  } satisfies FastifyHttpOptions<Server>;
}

interface Surfaces {
  spec: ServedSpec;
  options: SimulatorOptions;
  randomSeed: number;
  store: () => Store;
  faults: () => Faults;
  admin: Omit<AdminOptions, "guard"> & { adminToken: string };
}

/**
 * One plugin per rule of the README: errors, calls from web pages, the request rate, the API
 * surface, the admin surface.
 */
async function registerSurfaces(app: FastifyInstance, surfaces: Surfaces): Promise<void> {
  const { spec, options, randomSeed, store, faults } = surfaces;
  const retryAfter = options.retryAfter ?? DEFAULTS.retryAfter;
  const { requestRate } = spec.model.conventions;
  app.addHook("onSend", async (_request, reply) => {
    reply.header(SIMULATOR_HEADER, VERSION);
  });
  await app.register(errorsPlugin);
  // Before the request rate: a preflight is answered without counting as a call, and a refusal
  // for the rate carries the headers that let a page read it.
  await app.register(corsPlugin, { model: spec.model });
  await app.register(rateLimitPlugin, { requestRate, limit: options.rateLimit, retryAfter });
  // The platform's API surface, in a context of its own so its faults and checks stay inside it.
  await app.register(async (api) => {
    await api.register(faultsPlugin, {
      faults,
      // Faults draw from a source of their own, so switching them on leaves the world's ids alone.
      random: createRandom(faultSeed(randomSeed)),
      retryAfter,
      retryAfterSeconds: requestRate.periodSeconds,
    });
    await api.register(specRoutesPlugin, { spec, store });
    // What the platform's clients need beyond the spec, marked as such (handlers/extensions.ts).
    await api.register(extensionRoutesPlugin, { spec, extensions: platformExtensions(), store });
  });
  const { adminToken, ...admin } = surfaces.admin;
  await app.register(adminPlugin, {
    ...admin,
    guard: {
      adminToken,
      listeningPort: () => {
        const address = app.server.address();
        return typeof address === "object" && address ? address.port : undefined;
      },
      tokenScheme: sentAs(spec.model),
      acceptsClientToken: (token) => store().token(token) !== undefined,
    },
  });
}

/** The admin token: the option, else the environment's (checked alike), else a random one. */
function resolveAdminToken(options: SimulatorOptions): string {
  if (options.adminToken !== undefined) return options.adminToken;
  const fromEnv = (options.env ?? process.env)[ADMIN_TOKEN_VARIABLE];
  if (fromEnv === undefined || fromEnv === "") return randomAdminToken();
  const problem = adminTokenProblem(`$${ADMIN_TOKEN_VARIABLE}`, fromEnv);
  if (problem) throw new Error(`Invalid simulator options: ${problem}.`);
  return fromEnv;
}

/** What the simulator needs of the description before it builds anything from it. */
function checkSpec({ doc, model }: ServedSpec): void {
  checkHandlers(model.operations);
  // Every query parameter honoured or refused: planQuery throws naming one with no rule.
  for (const operation of model.operations) planQuery(doc, operation, QUERY_RULES);
  checkExtensions(platformExtensions());
  checkSecuritySchemes(model);
  taskStatesOf(taskPollingOf(model));
}

/** The regional limit fields of the spec, which the admin surface may set. */
function limitFieldsOf({ doc }: ServedSpec): string[] {
  const { properties } = componentSchema(doc, "RegionalLimits");
  return Object.keys(properties && typeof properties === "object" ? properties : {}).filter((f) =>
    f.endsWith("_limit"),
  );
}

/** A seed for the faults' random source, apart from the world's and stable for a given seed. */
function faultSeed(seed: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) ^ 0x85ebca6b) >>> 0;
}
