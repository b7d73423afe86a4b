// An operation that takes input (a body or query parameters) documents 400; one that names a
// resource or region in its path documents 404. The statuses are options so that other APIs of
// the same governance can reuse the rule.
import { effectiveParameters } from "./parameters.js";

export default function errorResponsesForInput(options = {}) {
  const inputStatus = String(options.inputStatus ?? "400");
  const pathStatus = String(options.pathStatus ?? "404");
  return {
    PathItem: {
      Operation: {
        enter(operation, ctx, parents) {
          const params = effectiveParameters(parents.PathItem, operation, ctx);
          const responses = operation.responses ?? {};
          const takesInput = Boolean(operation.requestBody) || params.some((p) => p.in === "query");
          if (takesInput && !(inputStatus in responses)) {
            ctx.report({
              message: `Operation takes input (a body or query parameters) but does not document ${inputStatus}.`,
              location: ctx.location.child("responses"),
            });
          }
          if (params.some((p) => p.in === "path") && !(pathStatus in responses)) {
            ctx.report({
              message: `Operation names a resource in its path but does not document ${pathStatus}.`,
              location: ctx.location.child("responses"),
            });
          }
        },
      },
    },
  };
}
