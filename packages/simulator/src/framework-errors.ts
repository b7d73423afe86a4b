// Requests the router refuses before any route sees them: a path whose parameter is not valid
// percent-encoding ("%zz", "%C0%AF") or is longer than the router takes. They are judged as their
// operation would judge them — authentication first, then 400, or 404 where the operation
// documents no 400 — in the platform's error shape, never Fastify's own body.

import type { FastifyReply, FastifyRequest } from "fastify";
import { authenticate } from "./auth.js";
import { ApiError } from "./errors.js";
import { documents, type SpecOperation } from "./operations.js";
import type { Store } from "./store.js";
import { quote } from "./validation-message.js";

export function createFrameworkErrorHandler(operations: SpecOperation[], store: () => Store) {
  const routes = operations.map((operation) => ({
    operation,
    pattern: new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  return (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split("?")[0] ?? "";
    const operation = routes.find(
      (r) => r.operation.method === request.method && r.pattern.test(path),
    )?.operation;
    if (!operation)
      return reply.code(404).send({ message: `No operation at ${request.method} ${quote(path)}.` });
    try {
      authenticate(request.raw.rawHeaders, store(), operation);
    } catch (error) {
      if (error instanceof ApiError) return reply.code(error.status).send({ message: error.message });
      throw error;
    }
    return reply.code(documents(operation, 400) ? 400 : 404).send({
      message: `A path parameter of ${operation.path} in ${quote(path)} is not valid percent-encoding (or is too long).`,
    });
  };
}
