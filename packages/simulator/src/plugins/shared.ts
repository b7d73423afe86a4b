// A plugin whose hooks, handlers and decorators apply to the whole app rather than to its own
// encapsulated context — what `fastify-plugin` does, through the same documented symbol, without
// the dependency.

import type { FastifyPluginAsync, FastifyPluginOptions } from "fastify";

export function shared<Options extends FastifyPluginOptions>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, {
    [Symbol.for("skip-override")]: true,
    [Symbol.for("fastify.display-name")]: name,
  });
}
