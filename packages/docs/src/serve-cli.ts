#!/usr/bin/env node
// `pnpm docs:serve [--port N] [--no-simulator]`: serves packages/docs/dist on 127.0.0.1, with the
// simulator for the reference's "Try it" console beside it, until interrupted.
import { parseArgs } from "node:util";
import { serveWithConsole } from "./serve-console.js";

try {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "4173" },
      "no-simulator": { type: "boolean", default: false },
    },
    strict: true,
  });
  const raw = String(values.port);
  if (!/^\d+$/.test(raw))
    throw new Error(`--port "${raw}" is not a port; expected an integer from 0 to 65535.`);
  const port = Number(raw);
  const served = await serveWithConsole({ port, simulator: !values["no-simulator"] });
  console.log(`Docs at ${served.docs.url}/ (Ctrl+C stops)`);
  if (served.simulator)
    console.log(
      `Simulator at ${served.simulator.url}: the reference's "Try it" panels call it with its default tokens (--no-simulator leaves it out)`,
    );
  const stop = () => void served.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
