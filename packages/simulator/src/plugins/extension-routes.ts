// Rule: beside the spec's routes, the platform operations the simulator serves as extensions
// (spec/platform-facts.yaml's `extensions`, handlers/extensions.ts): one route each at the path the
// record gives, with the same authentication (that of the spec's operation it shares its security
// with), the same rate limit and faults as every API route (it is registered in the same context),
// and every answer — success or refusal — marked with EXTENSION_HEADER, since the spec describes
// none of it. An answer is 200 or a refusal; the spec's error shape throughout.

import { matchOperation, operationById, type PlatformExtension } from "@platform-api/spec";
import { authenticate, sentAs } from "../auth.js";
import { EXTENSION_HEADER, EXTENSIONS } from "../handlers/extensions.js";
import type { ServedSpec } from "../spec.js";
import type { Store } from "../store.js";
import { shared } from "./shared.js";

export interface ExtensionRoutesOptions {
  spec: ServedSpec;
  extensions: readonly PlatformExtension[];
  /** The current store (the admin surface may replace it). */
  store: () => Store;
}

export const extensionRoutesPlugin = shared<ExtensionRoutesOptions>(
  "extension-routes",
  async (app, { spec, extensions, store }) => {
    const scheme = sentAs(spec.model);
    for (const extension of extensions) {
      const handler = EXTENSIONS[extension.id];
      if (!handler) throw new Error(`No handler for extension ${extension.id}; see checkExtensions.`);
      // A description that describes the operation serves it as its own: two routes would clash.
      const described = matchOperation(spec.model, extension.method, extension.path)?.operation;
      if (described)
        throw new Error(
          `The served description describes ${extension.method.toUpperCase()} ${extension.path} (${described.operationId}); it is no extension there: drop ${extension.id} from spec/platform-facts.yaml and EXTENSIONS.`,
        );
      const { security } = operationById(spec.model, handler.securityOf);
      const operation = { operationId: extension.platformOperationId, security, method: extension.method };
      app.route({
        method: extension.method.toUpperCase(),
        url: extension.path.replace(/\{([^}]+)\}/g, ":$1"),
        // Every answer of the route, a refusal by the rate limit or a fault included.
        onSend: async (_request, reply, payload) => {
          reply.header(EXTENSION_HEADER, extension.id);
          return payload;
        },
        preParsing: async (request) => {
          request.caller = authenticate(request.raw.rawHeaders, store(), operation, scheme);
        },
        handler: async (request, reply) => {
          const current = store();
          current.settle();
          const caller = request.caller;
          if (!caller) throw new Error(`Extension ${extension.id} reached its handler without a caller`);
          const answer = handler.handle(extension, {
            params: request.params as Record<string, string>,
            caller,
            store: current,
          });
          return reply.code(answer.status).send(answer.body);
        },
      });
    }
  },
);
