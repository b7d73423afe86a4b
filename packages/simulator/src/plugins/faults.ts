// Rule: faults on demand (`--faults`), met before anything else a request meets: a delay, a dropped
// connection, or an injected 500 or 429 — statuses every operation documents, so even a faulty run
// stays on-spec. Faults draw from a random source of their own, so switching them on leaves the
// world's ids alone. Registered inside the API surface only: the admin surface has no faults.

import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "../errors.js";
import { drawFault, type Faults } from "../faults.js";
import type { Random } from "../random.js";
import { shared } from "./shared.js";

export interface FaultsOptions {
  /** The current fault spec (the admin surface may replace it). */
  faults: () => Faults;
  random: Random;
  /** Whether an injected 429 carries Retry-After, as the rate limit's does. */
  retryAfter: boolean;
  /** Seconds an injected 429 advises to wait: one period of the spec's request rate. */
  retryAfterSeconds: number;
}

export const faultsPlugin = shared<FaultsOptions>("faults", async (app, options) => {
  const { random, retryAfter, retryAfterSeconds } = options;
  app.addHook("onRequest", async (request, reply) => {
    const faults = options.faults();
    if (faults.latency) await sleep(random.int(faults.latency.min, faults.latency.max));
    const draw = drawFault(faults, random.next);
    if (draw.kind === "reset") {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (draw.kind === "status") {
      if (draw.status === 429 && retryAfter) reply.header("retry-after", String(retryAfterSeconds));
      throw new ApiError(draw.status, `Injected fault: ${draw.status} (simulator --faults).`);
    }
    return undefined;
  });
});
