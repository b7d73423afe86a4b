// A plugin whose hooks, handlers and decorators apply to the whole app rather than to its own
// encapsulated context: each rule of the README is one such plugin. fastify-plugin (the Fastify
// team's own) marks it so, names it in Fastify's errors and checks the Fastify major it was
// written for.

import type { FastifyPluginAsync, FastifyPluginOptions } from "fastify";
import fastifyPlugin from "fastify-plugin";

export function shared<Options extends FastifyPluginOptions>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return fastifyPlugin(plugin, { name: `platform-api-simulator-${name}`, fastify: "5.x" });
}
