// Rule: one route per operation of the served description, each with its auth and its request
// checks from the spec. Authentication comes first (before the body is read), then integer
// parameters are read strictly, then path, query and body are validated against the description's
// own schemas — a query parameter it does not list is refused — with its defaults filled in, and
// only then does the operation's handler run. Its answer must have a status the operation documents.

import { createSpecAjv, documentsStatus, type OperationModel } from "@platform-api/spec";
import { authenticate, sentAs } from "../auth.js";
import { HANDLERS, type OperationId } from "../handlers/index.js";
import { QUERY_RULES } from "../handlers/query-rules.js";
import { integerParameterCheck } from "../integer-parameters.js";
import { registerJsonBodyParser } from "../json-body.js";
import { planQuery, type QueryContext } from "../query.js";
import { routeOf } from "../route-schemas.js";
import type { ServedSpec } from "../spec.js";
import type { Caller, Store } from "../store.js";
import { unrefusableQueryFilter } from "../unrefusable-query.js";
import { shared } from "./shared.js";

declare module "fastify" {
  interface FastifyRequest {
    caller: Caller | null;
  }
  interface FastifyContextConfig {
    operation?: OperationModel;
  }
}

export interface SpecRoutesOptions {
  spec: ServedSpec;
  /** The current store (the admin surface may replace it). */
  store: () => Store;
}

/**
 * A handler as the route calls it. Each handler is typed by its operation (handlers/types.ts); the
 * route's validation against the same description is what gives the request that type.
 */
type RouteHandler = (request: {
  params: unknown;
  query: unknown;
  body: unknown;
  rawQuery: string;
  select: <T>(items: readonly T[]) => T[];
  caller: Caller;
  store: Store;
}) => { status: number; body?: unknown };

/** Stops the start when the served description and the handlers do not name the same operations. */
export function checkHandlers(operations: readonly OperationModel[]): void {
  const inSpec = new Set(operations.map((o) => o.operationId));
  const missing = operations
    .filter((o) => !isOperationId(o.operationId))
    .map((o) => `${o.operationId} (${o.key})`);
  const unknown = Object.keys(HANDLERS).filter((id) => !inSpec.has(id));
  if (missing.length > 0)
    throw new Error(`The spec has operations without a simulator handler: ${missing.join(", ")}.`);
  if (unknown.length > 0)
    throw new Error(`Simulator handlers name operations the spec does not have: ${unknown.join(", ")}.`);
}

const isOperationId = (id: string): id is OperationId => Object.hasOwn(HANDLERS, id);

/** What one operation's route is made of, apart from the store it answers from. */
interface CompiledRoute {
  operation: OperationModel;
  handler: RouteHandler;
  route: ReturnType<typeof routeOf>;
  plan: ReturnType<typeof planQuery>;
  preValidation: NonNullable<
    ReturnType<typeof unrefusableQueryFilter> | ReturnType<typeof integerParameterCheck>
  >[];
}

interface CompiledRoutes {
  parameterAjv: ReturnType<typeof createSpecAjv>;
  bodyAjv: ReturnType<typeof createSpecAjv>;
  routes: CompiledRoute[];
}

/**
 * The Ajv set-ups and routes of each description, built once: compiling the description's schemas
 * is most of the cost of a start, and Ajv hands back a schema's validator without compiling again
 * when it is given the same schema object. Validators are pure, so simulators serving one
 * description (a test suite starts many) share them; a description no longer served is let go.
 */
const compiledRoutes = new WeakMap<object, CompiledRoutes>();

function compiledRoutesOf(spec: ServedSpec): CompiledRoutes {
  const known = compiledRoutes.get(spec.doc);
  if (known) return known;
  // Path and query parameters arrive as text: coerced, with the spec's defaults. Bodies never are.
  const parameterAjv = createSpecAjv(spec.doc, { coerce: true, verbose: true });
  const bodyAjv = createSpecAjv(spec.doc, { coerce: false, verbose: true });
  const routes = spec.model.operations.map((operation) => {
    const { operationId } = operation;
    if (!isOperationId(operationId)) throw new Error(`No handler for ${operationId}; see checkHandlers.`);
    const preValidation = [
      unrefusableQueryFilter(spec.doc, operation, parameterAjv),
      integerParameterCheck(operation),
    ].filter((hook) => hook !== undefined);
    return {
      operation,
      handler: HANDLERS[operationId] as unknown as RouteHandler,
      route: routeOf(spec.doc, operation),
      plan: planQuery(spec.doc, operation, QUERY_RULES),
      preValidation,
    };
  });
  const compiled = { parameterAjv, bodyAjv, routes };
  compiledRoutes.set(spec.doc, compiled);
  return compiled;
}

export const specRoutesPlugin = shared<SpecRoutesOptions>("spec-routes", async (app, { spec, store }) => {
  registerJsonBodyParser(app);
  const { parameterAjv, bodyAjv, routes } = compiledRoutesOf(spec);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === "body" ? bodyAjv : parameterAjv).compile(schema),
  );
  app.decorateRequest("caller", null);
  const scheme = sentAs(spec.model);

  for (const { operation, handler, route, plan, preValidation } of routes) {
    const { operationId } = operation;
    app.route({
      method: operation.method.toUpperCase(),
      url: route.url,
      schema: route.schema,
      config: { operation },
      // Auth before the body is read or validated: an unauthenticated request learns nothing more.
      preParsing: async (request) => {
        request.caller = authenticate(request.raw.rawHeaders, store(), operation, scheme);
      },
      ...(preValidation.length > 0 ? { preValidation } : {}),
      handler: async (request, reply) => {
        const current = store();
        current.settle();
        const { url } = request;
        const caller = request.caller;
        if (!caller) throw new Error(`${operationId} reached its handler without a caller`);
        const rawQuery = url.includes("?") ? url.slice(url.indexOf("?") + 1) : "";
        const sent = new URLSearchParams(rawQuery);
        plan.refuse(sent);
        const query = request.query as QueryContext["query"];
        const answer = handler({
          params: request.params,
          query: request.query,
          body: request.body,
          rawQuery,
          select: (items) => plan.select(items, { query, sent }),
          caller,
          store: current,
        });
        if (!documentsStatus(operation, answer.status))
          throw new Error(`${operationId} answered ${answer.status}, which the spec does not document`);
        reply.code(answer.status);
        return answer.body === undefined ? reply.send() : reply.send(answer.body);
      },
    });
  }
});
