#!/usr/bin/env node
// `pnpm docs:serve [--port N]`: serves packages/docs/dist on 127.0.0.1 until interrupted.
import { parseArgs } from "node:util";
import { serveDocs } from "./serve.js";

try {
  const { values } = parseArgs({ options: { port: { type: "string", default: "4173" } }, strict: true });
  const raw = String(values.port);
  if (!/^\d+$/.test(raw))
    throw new Error(`--port "${raw}" is not a port; expected an integer from 0 to 65535.`);
  const port = Number(raw);
  const server = await serveDocs({ port });
  console.log(`Docs at ${server.url}/ (Ctrl+C stops)`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
