// Rule: the admin surface under /_sim/ is NOT part of the platform. It resets the world, moves the
// clock, lists what the API created, sets quotas and faults. It has no faults and no rate limit;
// every route answers only the admin token, or a loopback caller a web page cannot pose as
// (admin-guard.ts). Bodies are JSON within the simulator's bounds (json-body.ts), numbers too.

import { createSpecAjv } from "@platform-api/spec";
import type {
  FastifyPluginAsync,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RouteGenericInterface,
} from "fastify";
import { type GuardOptions, guardAdminRequest } from "../admin-guard.js";
import { sentToken } from "../auth.js";
import type { Clock } from "../clock.js";
import { withoutOffset } from "../clock.js";
import { badRequest } from "../errors.js";
import { simulatorHints } from "../hints.js";
import { registerJsonBodyParser } from "../json-body.js";
import { SAFE_INTEGER } from "../limits.js";
import { ADMIN_TOKEN_HEADER } from "../options.js";
import type { Store } from "../store.js";
import type { RegionalLimitValues } from "../world/types.js";

export interface AdminOptions {
  store: () => Store;
  clock: Clock;
  reset(): void;
  setFaults(spec: string): void;
  /** The regional limit fields of the spec (`RegionalLimits`) a quota may set. */
  limitFields: readonly string[];
  /** Who may call (admin-guard.ts). */
  guard: GuardOptions;
}

/**
 * The most one POST /_sim/clock moves the clock: ten years (of 365.25 days), far beyond any task's
 * duration or retention (hours). What keeps every date valid is the clock's own end (CLOCK_END_MS);
 * this bound makes a typo such as 1e15 a 400 saying so rather than a jump to the year 9999.
 */
export const MAX_ADVANCE_SECONDS = 10 * 365.25 * 86_400;

declare module "fastify" {
  interface FastifyContextConfig {
    /** Admin route: a client token the simulator accepts opens it as the admin token does. */
    clientTokenOpens?: boolean;
  }
}

const noLimit = { rateLimit: false } as const;

/** A route of the admin surface: registered, and listed by GET /_sim, from this one declaration. */
interface AdminRoute<Route extends RouteGenericInterface = RouteGenericInterface> {
  method: "GET" | "POST" | "PUT";
  /** The path as GET /_sim lists it; `{name}` is a path parameter. */
  path: `/_sim/${string}`;
  /** What the listing adds after the path: the body the route takes, or who may call it. */
  usage?: string;
  /** A client token the simulator accepts opens the route as the admin token does. */
  clientTokenOpens?: true;
  schema?: (context: AdminOptions) => FastifySchema;
  handle(request: FastifyRequest<Route>, reply: FastifyReply, context: AdminOptions): Promise<unknown>;
}

/** Each route keeps its own request type; the table holds them alike. */
const adminRoute = <Route extends RouteGenericInterface>(route: AdminRoute<Route>) =>
  route as unknown as AdminRoute;

/** A JSON object body of exactly these fields, each required. */
const bodyOf = (properties: Record<string, object>) => ({
  type: "object",
  required: Object.keys(properties),
  additionalProperties: false,
  properties,
});

// The schemas are built once, so the shared Ajv set-ups below compile each once per process.
const CLOCK_SCHEMA = {
  body: bodyOf({ advance_seconds: { type: "number", minimum: 0, maximum: MAX_ADVANCE_SECONDS } }),
};
const FAULTS_SCHEMA = { body: bodyOf({ faults: { type: "string" } }) };
const COUNT = { type: "integer", minimum: 0, maximum: SAFE_INTEGER } as const;
const QUOTA_PARAMS = { type: "object", properties: { client_id: COUNT, region_id: COUNT } };
const quotaSchemas = new Map<string, FastifySchema>();
/** A quota body names limit fields of the spec's RegionalLimits only: one schema per set of them. */
function quotaSchema({ limitFields }: AdminOptions): FastifySchema {
  const key = JSON.stringify(limitFields);
  let schema = quotaSchemas.get(key);
  if (!schema) {
    schema = {
      params: QUOTA_PARAMS,
      body: {
        type: "object",
        minProperties: 1,
        propertyNames: { enum: limitFields },
        additionalProperties: COUNT,
      },
    };
    quotaSchemas.set(key, schema);
  }
  return schema;
}

const ADMIN_ROUTES: readonly AdminRoute[] = [
  adminRoute({
    method: "POST",
    path: "/_sim/reset",
    handle: async (_request, _reply, context) => {
      context.reset();
      return { reset: true };
    },
  }),
  adminRoute<{ Body: { advance_seconds: number } }>({
    method: "POST",
    path: "/_sim/clock",
    usage: "{advance_seconds}",
    schema: () => CLOCK_SCHEMA,
    handle: async (request, _reply, context) => {
      const ms = request.body.advance_seconds * 1000;
      const left = context.clock.remainingMs();
      if (ms > left)
        throw badRequest(
          `Body field "advance_seconds" is ${request.body.advance_seconds}; the clock may move at most ${Math.floor(left / 1000)} seconds more: past 9999-12-31T23:59:59.999 a date-time has no four-digit year.`,
        );
      context.clock.advance(ms);
      context.store().settle();
      return { now: withoutOffset(context.clock.now()) };
    },
  }),
  adminRoute({
    method: "GET",
    path: "/_sim/resources",
    handle: async (_request, _reply, context) => {
      const store = context.store();
      store.settle();
      return {
        volumes: store.createdVolumes(),
        tasks: store
          .createdTasks()
          .map((t) => ({ ...t.record, project_id: t.project_id, region_id: t.region_id })),
      };
    },
  }),
  // A remote tester cannot read the world: it asks for what the API does not tell (see hints.ts).
  adminRoute({
    method: "GET",
    path: "/_sim/hints",
    usage: "(with the Authorization header of a client token)",
    clientTokenOpens: true,
    handle: async (request, _reply, context) => {
      const token = sentToken(request.headers, context.guard.tokenScheme);
      const hints = simulatorHints(context.store(), token);
      return {
        gpu_flavor: hints.gpuFlavor ?? null,
        protection_profile_id: hints.protectionProfileId ?? null,
      };
    },
  }),
  adminRoute<{ Params: { client_id: number; region_id: number }; Body: RegionalLimitValues }>({
    method: "PUT",
    path: "/_sim/quotas/{client_id}/{region_id}",
    usage: "{<quota>_limit: n, …}",
    schema: quotaSchema,
    handle: async (request, _reply, context) => {
      const { client_id, region_id } = request.params;
      return {
        client_id,
        region_id,
        limits: context.store().setQuotaLimits(client_id, region_id, request.body),
      };
    },
  }),
  adminRoute<{ Body: { faults: string } }>({
    method: "PUT",
    path: "/_sim/faults",
    usage: "{faults}",
    schema: () => FAULTS_SCHEMA,
    handle: async (request, reply, context) => {
      try {
        context.setFaults(request.body.faults);
      } catch (error) {
        return reply.code(400).send({ message: (error as Error).message });
      }
      return { faults: request.body.faults };
    },
  }),
];

let ajvs:
  | { parameters: ReturnType<typeof createSpecAjv>; body: ReturnType<typeof createSpecAjv> }
  | undefined;
/**
 * The admin surface's Ajv set-ups, one per process: its schemas are its own, not the description's,
 * and each new Ajv compiles the JSON Schema meta-schema first, a good part of a start.
 */
function adminAjvs() {
  ajvs ??= { parameters: createSpecAjv(undefined, { coerce: true }), body: createSpecAjv(undefined) };
  return ajvs;
}

/** Encapsulated: its schemas are its own, checked without the description. */
export const adminPlugin: FastifyPluginAsync<AdminOptions> = async (app, context) => {
  const { parameters, body } = adminAjvs();
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? body : parameters).compile(schema),
  );
  // JSON only (a bodyless POST carries Content-Type: application/json too), numbers within bounds.
  registerJsonBodyParser(app, { emptyBody: true });
  // Before the body is read: a refused caller's body is never parsed.
  app.addHook("onRequest", async (request) => {
    guardAdminRequest(request, context.guard, request.routeOptions.config.clientTokenOpens === true);
  });

  app.get("/_sim", { config: noLimit }, async () => ({
    note: "Admin surface of the platform API simulator; not part of the platform.",
    now: withoutOffset(context.clock.now()),
    routes: ADMIN_ROUTES.map((r) => [r.method, r.path, r.usage].filter(Boolean).join(" ")),
    access: `The ${ADMIN_TOKEN_HEADER} header with the admin token; or, from 127.0.0.1 or ::1, a Host header of loopback and this port, and Content-Type: application/json on every request but GET.`,
  }));

  for (const route of ADMIN_ROUTES) {
    app.route({
      method: route.method,
      url: route.path.replace(/\{([^}]+)\}/g, ":$1"),
      config: route.clientTokenOpens ? { ...noLimit, clientTokenOpens: true } : noLimit,
      ...(route.schema ? { schema: route.schema(context) } : {}),
      handler: (request, reply) => route.handle(request, reply, context),
    });
  }
};
