// Rule: a web page may call the API surface (the docs' "Try it" console, a front end under
// development): preflights are answered and every answer lets the page read its status, body and
// headers. Any origin may: the simulator is a local stand-in, holding no one's data; a call
// carries its token in a header the page itself set, never a cookie (no credentials are allowed,
// so the browser sends none); and the site opened from disk calls with the origin "null", a copy
// hosted elsewhere with its own. Not the admin surface (/_sim/): it resets the world and sets
// faults, and its guard (admin-guard.ts) stands on a page being unable to send it anything but a
// simple request, so a preflight there stays refused.
//
// Only a request that names an Origin is a browser's cross-origin call: any other (curl, the
// client in Node, the conformance suite) is answered as before, with no CORS header but
// `Vary: Origin` (the answer does depend on it: a cache must not hand one kind to the other). A
// preflight is allowed where the spec has an operation for the method it asks (judged on the path
// as sent, so no percent-encoding of "/_sim" slips past); an OPTIONS request that is no preflight
// (no Access-Control-Request-Method), or asks elsewhere, is no operation: 404, as before. A call
// is answered readably unless the route it reached (as the router decoded it) is the admin
// surface's.

import cors, { type FastifyCorsOptions } from "@fastify/cors";
import { matchOperation, type SpecModel } from "@platform-api/spec";
import type { FastifyRequest } from "fastify";
import { shared } from "./shared.js";

/** Where the admin surface lives: never open to other origins. */
export const ADMIN_PATH = "/_sim";

export interface CorsOptions {
  /** The spec model: a preflight is allowed for its operations, and the methods they use. */
  model: SpecModel;
}

/** How long a browser may keep a preflight's answer: a console's calls then need one a path. */
const PREFLIGHT_CACHE_SECONDS = 600;

export const corsPlugin = shared<CorsOptions>("cors", async (app, { model }) => {
  const methods = [...new Set(model.operations.map((o) => o.method.toUpperCase()))].sort();
  const open: FastifyCorsOptions = {
    origin: "*",
    methods,
    // allowedHeaders unset: a preflight allows the headers it asks for (Authorization, Content-Type).
    // Every header of the answer: the spec's Retry-After, and whatever else it carries, readable
    // (`*` holds for calls without credentials, and these have none).
    exposedHeaders: "*",
    credentials: false,
    maxAge: PREFLIGHT_CACHE_SECONDS,
    strictPreflight: true,
  };
  const closed: FastifyCorsOptions = { origin: false };
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback) => callback(null, applies(request, model) ? open : closed),
  });
});

function applies(request: FastifyRequest, model: SpecModel): boolean {
  if (request.headers.origin === undefined) return false;
  if (request.method === "OPTIONS") {
    const asked = request.headers["access-control-request-method"];
    const path = request.url.split("?")[0] ?? "";
    return typeof asked === "string" && matchOperation(model, asked, path) !== undefined;
  }
  const route = request.routeOptions.url ?? "";
  return route !== ADMIN_PATH && !route.startsWith(`${ADMIN_PATH}/`);
}
