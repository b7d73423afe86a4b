// Calls from a web page on another origin (the docs' "Try it" console): preflights answered for
// every operation, answers a page may read (status, body, headers), and nothing changed for a
// caller that is no browser, for the admin surface, nor for an OPTIONS request that is no
// preflight. In-process (app.inject): CORS is headers on the request and the answer, the same
// without a socket; the docs' browser test (packages/docs/test/browser-console.test.ts) shows a
// real browser accepting them.
import { loadModel } from "@platform-api/spec";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SIMULATOR_HEADER } from "../src/hints.js";
import { createSimulator, type Simulator } from "../src/index.js";
import { tokenPrefix } from "./harness.js";

const model = loadModel();
const PAGE = "http://127.0.0.1:4173";
const listRegions = model.operations.find((o) => o.operationId === "listRegions");
if (!listRegions) throw new Error("the spec has no listRegions");
const RATE = model.conventions.requestRate;

/** A concrete path of an operation: each parameter a plain value (a preflight carries none). */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, "1");

let sim: Simulator;
beforeAll(async () => {
  sim = await createSimulator({ env: {} });
});
afterAll(() => sim.close());

const preflight = (path: string, method: string, origin = PAGE) =>
  sim.app.inject({
    method: "OPTIONS",
    url: path,
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "authorization,content-type",
    },
  });

const corsHeaders = (answer: LightMyRequestResponse) =>
  Object.keys(answer.headers).filter((name) => name.startsWith("access-control-"));

describe("a page on another origin", () => {
  it("is answered a preflight for every operation of the spec, with its method and the token's header", async () => {
    for (const operation of model.operations) {
      const method = operation.method.toUpperCase();
      const answer = await preflight(concrete(operation.path), method);
      expect(answer.statusCode, operation.key).toBe(204);
      expect(answer.headers["access-control-allow-origin"], operation.key).toBe("*");
      expect(String(answer.headers["access-control-allow-methods"]).split(/, */), operation.key).toContain(
        method,
      );
      expect(answer.headers["access-control-allow-headers"], operation.key).toBe(
        "authorization,content-type",
      );
      // No cookie ever goes with a call: a page's token is the header it set itself.
      expect(answer.headers["access-control-allow-credentials"], operation.key).toBeUndefined();
    }
  });

  it("reads an answer's status, body and every header, a refusal's too", async () => {
    const url = concrete(listRegions.path);
    const ok = await sim.app.inject({
      method: "GET",
      url,
      headers: { origin: PAGE, authorization: `${tokenPrefix}${sim.apiKey}` },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers["access-control-allow-origin"]).toBe("*");
    expect(ok.headers["access-control-expose-headers"]).toBe("*");
    expect(ok.headers[SIMULATOR_HEADER]).toBeDefined();
    const refused = await sim.app.inject({
      method: "GET",
      url,
      headers: { origin: "null", authorization: `${tokenPrefix}wrong` },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers["access-control-allow-origin"]).toBe("*");
  });

  it("reads the request rate's refusal and its Retry-After", async () => {
    const limited = await createSimulator({ env: {}, rateLimit: 1 });
    try {
      const call = () =>
        limited.app.inject({
          method: "GET",
          url: concrete(listRegions.path),
          headers: { origin: PAGE, authorization: `${tokenPrefix}${limited.apiKey}` },
        });
      // A preflight is no call: it does not count against the rate.
      expect((await preflight(concrete(listRegions.path), "GET")).statusCode).toBe(204);
      const first = await limited.app.inject({
        method: "OPTIONS",
        url: concrete(listRegions.path),
        headers: { origin: PAGE, "access-control-request-method": "GET" },
      });
      expect(first.statusCode).toBe(204);
      expect((await call()).statusCode).toBe(200);
      const refused = await call();
      expect(refused.statusCode).toBe(RATE.exceededStatus);
      expect(refused.headers["access-control-allow-origin"]).toBe("*");
      expect(refused.headers["access-control-expose-headers"]).toBe("*");
      expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe("what stays as it was", () => {
  it("answers a caller that names no origin without any CORS header", async () => {
    const answer = await sim.app.inject({
      method: "GET",
      url: concrete(listRegions.path),
      headers: { authorization: `${tokenPrefix}${sim.apiKey}` },
    });
    expect(answer.statusCode).toBe(200);
    expect(corsHeaders(answer)).toEqual([]);
    // The one addition: the answer depends on Origin, so a cache between keeps the two apart.
    expect(answer.headers.vary).toBe("Origin");
  });

  it("answers an OPTIONS request that is no preflight 404, as any path that is no operation", async () => {
    const path = concrete(listRegions.path);
    for (const headers of [{}, { origin: PAGE }]) {
      const answer = await sim.app.inject({ method: "OPTIONS", url: path, headers });
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ message: `No operation at OPTIONS ${path}.` });
      expect(corsHeaders(answer)).toEqual([]);
    }
    // A preflight for a method the path has no operation for, or a path that is none.
    for (const [path, method] of [
      [concrete(listRegions.path), "DELETE"],
      ["/no/such/path", "GET"],
    ] as const) {
      const answer = await preflight(path, method);
      expect(answer.statusCode, `${method} ${path}`).toBe(404);
      expect(corsHeaders(answer), `${method} ${path}`).toEqual([]);
    }
  });

  it("keeps the admin surface closed to pages: no preflight, no readable answer", async () => {
    // Its guard stands on a page being unable to send it JSON without a preflight (admin-guard.ts).
    for (const path of ["/_sim/reset", "/%5Fsim/reset", "/_sim/faults"]) {
      const answer = await preflight(path, "POST");
      expect(answer.statusCode, path).toBe(404);
      expect(corsHeaders(answer), path).toEqual([]);
    }
    for (const path of ["/_sim/hints", "/%5Fsim/hints"]) {
      const read = await sim.app.inject({ method: "GET", url: path, headers: { origin: PAGE } });
      expect(read.statusCode, path).not.toBe(404);
      expect(corsHeaders(read), path).toEqual([]);
    }
  });
});
