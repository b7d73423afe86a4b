// Rule: every refusal is the platform's error shape, `{"message": …}`, saying what was wrong and
// what is allowed, with a status the operation documents. ApiErrors (auth, handlers, faults, the
// rate limit) carry their status; a request that breaks the spec is a 400 naming the parameter or
// field — a 404 where the operation documents no 400 (getTask: a task_id that is no UUID names no
// task); Fastify's own refusals of a body are 400s; a path that is no operation is a 404.

import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { ApiError, refusalStatus } from "../errors.js";
import { unsupportedMediaType } from "../json-body.js";
import { describeValidationErrors } from "../validation-message.js";
import { shared } from "./shared.js";

export const errorsPlugin = shared("errors", async (app) => {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => answerError(error, request, reply));
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ message: `No operation at ${request.method} ${request.url.split("?")[0]}.` }),
  );
});

function answerError(error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) return reply.code(error.status).send({ message: error.message });
  const operation = request.routeOptions.config.operation;
  if (error.validation && error.validationContext) {
    const message = describeValidationErrors(error.validation, error.validationContext, operation);
    const status = (operation && refusalStatus(operation)) ?? 400;
    return reply.code(status).send({ message });
  }
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE")
    return reply.code(400).send({ message: unsupportedMediaType(request.headers["content-type"]) });
  if (typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own refusals (bad JSON, unsupported media type, body too large) are body errors.
    return reply.code(400).send({ message: `The request body has errors: ${error.message}` });
  }
  request.log.error(error);
  return reply.code(500).send({ message: `Internal simulator error: ${error.message}` });
}
