// Requests the router refuses before any route sees them: a path whose parameter is not valid
// percent-encoding ("%zz", "%C0%AF") or is longer than the router takes. They are judged as their
// operation would judge them — authentication first, then 400, or 404 where the operation
// documents no 400 — in the platform's error shape, never Fastify's own body.

import { matchOperation, type SpecModel } from "@platform-api/spec";
import type { FastifyReply, FastifyRequest } from "fastify";
import { authenticate, sentAs } from "./auth.js";
import { ApiError, refusalStatus } from "./errors.js";
import type { Store } from "./store.js";
import { quote } from "./validation-message.js";

export function createFrameworkErrorHandler(model: SpecModel, store: () => Store) {
  const scheme = sentAs(model);
  return (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split("?")[0] ?? "";
    const operation = matchOperation(model, request.method, path)?.operation;
    if (!operation)
      return reply.code(404).send({ message: `No operation at ${request.method} ${quote(path)}.` });
    try {
      authenticate(request.raw.rawHeaders, store(), operation, scheme);
    } catch (error) {
      if (error instanceof ApiError) return reply.code(error.status).send({ message: error.message });
      throw error;
    }
    return reply.code(refusalStatus(operation) ?? 400).send({
      message: `A path parameter of ${operation.path} in ${quote(path)} is not valid percent-encoding (or is too long).`,
    });
  };
}
