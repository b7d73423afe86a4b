// What `pnpm docs:serve [--port N] [--no-simulator]` does (serve-cli.ts runs it with the real
// process): serves the built site on 127.0.0.1 with the simulator for the reference's "Try it"
// console beside it, prints where, and stops both on Ctrl+C (SIGINT) or SIGTERM.
import { parseArgs } from "node:util";
import { type ServedWithConsole, serveWithConsole } from "./serve-console.js";

/** What the program needs of its process: a test hands it a stand-in. */
export interface ServeIo {
  log(line: string): void;
  error(line: string): void;
  exit(code: number): void;
  onSignal(signal: "SIGINT" | "SIGTERM", handler: () => void): void;
}

/** Serves until a signal; the served site, or undefined when the arguments or the start failed (exit 2). */
export async function runServe(
  args: string[],
  io: ServeIo,
  /** The built site's folder (default: this package's dist/; tests pass one they built). */
  dir?: string,
): Promise<ServedWithConsole | undefined> {
  try {
    const { values } = parseArgs({
      args,
      options: {
        port: { type: "string", default: "4173" },
        "no-simulator": { type: "boolean", default: false },
      },
      strict: true,
    });
    const raw = String(values.port);
    if (!/^\d+$/.test(raw))
      throw new Error(`--port "${raw}" is not a port; expected an integer from 0 to 65535.`);
    const served = await serveWithConsole({
      port: Number(raw),
      simulator: !values["no-simulator"],
      ...(dir === undefined ? {} : { dir }),
    });
    io.log(`Docs at ${served.docs.url}/ (Ctrl+C stops)`);
    if (served.simulator)
      io.log(
        `Simulator at ${served.simulator.url}: the reference's "Try it" panels call it with its default tokens (--no-simulator leaves it out)`,
      );
    const stop = () => void served.close().then(() => io.exit(0));
    io.onSignal("SIGINT", stop);
    io.onSignal("SIGTERM", stop);
    return served;
  } catch (error) {
    io.error(error instanceof Error ? error.message : String(error));
    io.exit(2);
    return undefined;
  }
}
