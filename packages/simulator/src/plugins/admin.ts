// Rule: the admin surface under /_sim/ is NOT part of the platform. It resets the world, moves the
// clock, lists what the API created, sets quotas and faults. It has no auth, no faults and no rate
// limit; the simulator listens on loopback by default.

import { createSpecAjv } from "@platform-api/spec";
import type { FastifyPluginAsync } from "fastify";
import { SCHEME } from "../auth.js";
import type { Clock } from "../clock.js";
import { withoutOffset } from "../clock.js";
import { simulatorHints } from "../hints.js";
import type { Store } from "../store.js";
import type { RegionalLimitValues } from "../world/types.js";

export interface AdminOptions {
  store: () => Store;
  clock: Clock;
  reset(): void;
  setFaults(spec: string): void;
  /** The regional limit fields of the spec (`RegionalLimits`) a quota may set. */
  limitFields: readonly string[];
}

const noLimit = { rateLimit: false } as const;

/** Encapsulated: its schemas are its own, checked without the description. */
export const adminPlugin: FastifyPluginAsync<AdminOptions> = async (app, context) => {
  const parameterAjv = createSpecAjv(undefined, { coerce: true });
  const bodyAjv = createSpecAjv(undefined);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? bodyAjv : parameterAjv).compile(schema),
  );

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
          properties: { advance_seconds: { type: "number", minimum: 0 } },
        },
      },
    },
    async (request) => {
      context.clock.advance(request.body.advance_seconds * 1000);
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
  app.get("/_sim/hints", { config: noLimit }, async (request) => {
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
          properties: { client_id: { type: "integer" }, region_id: { type: "integer" } },
        },
        body: {
          type: "object",
          minProperties: 1,
          propertyNames: { enum: context.limitFields },
          additionalProperties: { type: "integer", minimum: 0 },
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
