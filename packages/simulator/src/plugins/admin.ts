// Rule: the admin surface under /_sim/ is NOT part of the platform. It resets the world, moves the
// clock, lists what the API created, sets quotas and faults. It has no faults and no rate limit;
// every route answers only the admin token, or a loopback caller a web page cannot pose as
// (admin-guard.ts). Bodies are JSON within the simulator's bounds (json-body.ts), numbers too.

import { createSpecAjv } from "@platform-api/spec";
import type { FastifyPluginAsync } from "fastify";
import { ADMIN_TOKEN_HEADER, type GuardOptions, guardAdminRequest } from "../admin-guard.js";
import { SCHEME } from "../auth.js";
import type { Clock } from "../clock.js";
import { withoutOffset } from "../clock.js";
import { badRequest } from "../errors.js";
import { simulatorHints } from "../hints.js";
import { registerJsonBodyParser } from "../json-body.js";
import { SAFE_INTEGER } from "../limits.js";
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

/** Encapsulated: its schemas are its own, checked without the description. */
export const adminPlugin: FastifyPluginAsync<AdminOptions> = async (app, context) => {
  const parameterAjv = createSpecAjv(undefined, { coerce: true });
  const bodyAjv = createSpecAjv(undefined);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? bodyAjv : parameterAjv).compile(schema),
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
    routes: [
      "POST /_sim/reset",
      "POST /_sim/clock {advance_seconds}",
      "GET /_sim/resources",
      "GET /_sim/hints (with the Authorization header of a client token)",
      "PUT /_sim/quotas/{client_id}/{region_id} {<quota>_limit: n, …}",
      "PUT /_sim/faults {faults}",
    ],
    access: `The ${ADMIN_TOKEN_HEADER} header with the admin token; or, from 127.0.0.1 or ::1, a Host header of loopback and this port, and Content-Type: application/json on every request but GET.`,
  }));

  app.post("/_sim/reset", { config: noLimit }, async () => {
    context.reset();
    return { reset: true };
  });

  app.post<{ Body: { advance_seconds: number } }>(
    "/_sim/clock",
    {
      config: noLimit,
      schema: {
        body: {
          type: "object",
          required: ["advance_seconds"],
          additionalProperties: false,
          properties: { advance_seconds: { type: "number", minimum: 0, maximum: MAX_ADVANCE_SECONDS } },
        },
      },
    },
    async (request) => {
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
  );

  app.get("/_sim/resources", { config: noLimit }, async () => {
    const store = context.store();
    store.settle();
    return {
      volumes: store.createdVolumes(),
      tasks: store
        .createdTasks()
        .map((t) => ({ ...t.record, project_id: t.project_id, region_id: t.region_id })),
    };
  });

  // A remote tester cannot read the world: it asks for what the API does not tell (see hints.ts).
  app.get("/_sim/hints", { config: { ...noLimit, clientTokenOpens: true } }, async (request) => {
    const header = request.headers.authorization;
    const token = header?.startsWith(SCHEME) ? header.slice(SCHEME.length) : undefined;
    const hints = simulatorHints(context.store(), token);
    return { gpu_flavor: hints.gpuFlavor ?? null, protection_profile_id: hints.protectionProfileId ?? null };
  });

  app.put<{ Params: { client_id: number; region_id: number }; Body: RegionalLimitValues }>(
    "/_sim/quotas/:client_id/:region_id",
    {
      config: noLimit,
      schema: {
        params: {
          type: "object",
          properties: {
            client_id: { type: "integer", minimum: 0, maximum: SAFE_INTEGER },
            region_id: { type: "integer", minimum: 0, maximum: SAFE_INTEGER },
          },
        },
        body: {
          type: "object",
          minProperties: 1,
          propertyNames: { enum: context.limitFields },
          additionalProperties: { type: "integer", minimum: 0, maximum: SAFE_INTEGER },
        },
      },
    },
    async (request) => {
      const { client_id, region_id } = request.params;
      return {
        client_id,
        region_id,
        limits: context.store().setQuotaLimits(client_id, region_id, request.body),
      };
    },
  );

  app.put<{ Body: { faults: string } }>(
    "/_sim/faults",
    {
      config: noLimit,
      schema: {
        body: {
          type: "object",
          required: ["faults"],
          additionalProperties: false,
          properties: { faults: { type: "string" } },
        },
      },
    },
    async (request, reply) => {
      try {
        context.setFaults(request.body.faults);
      } catch (error) {
        return reply.code(400).send({ message: (error as Error).message });
      }
      return { faults: request.body.faults };
    },
  );
};
