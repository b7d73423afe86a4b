// `pnpm docs:serve` with the reference's "Try it" console working out of the box: the simulator
// started beside the site, on 127.0.0.1 and a free port of its own, and the site's
// console-target.json naming it, so every panel calls it with its tokens. Both stop together.
import { type Simulator, startSimulator } from "@platform-api/simulator";
import { CONSOLE_TARGET_FILE, type ConsoleTarget, NO_CONSOLE_TARGET } from "./console.js";
import { type DocsServer, serveDocs } from "./serve.js";

export interface ServedWithConsole {
  docs: DocsServer;
  /** The embedded simulator; absent with `simulator: false`. */
  simulator?: Simulator;
  close(): Promise<void>;
}

export async function serveWithConsole(options: {
  port?: number;
  dir?: string;
  /** Start the simulator for the console (default); false serves the site alone. */
  simulator?: boolean;
}): Promise<ServedWithConsole> {
  // Its documented default tokens, never the reader's own from GCORE_API_KEY: the page is handed
  // the tokens, and a real one has no business in a stand-in's answers nor in a web page.
  const simulator =
    options.simulator === false ? undefined : await startSimulator({ host: "127.0.0.1", port: 0, env: {} });
  const target: ConsoleTarget = simulator
    ? {
        simulator: {
          url: simulator.url,
          tokens: { client: simulator.apiKey, reseller: simulator.resellerApiKey },
        },
      }
    : NO_CONSOLE_TARGET;
  let docs: DocsServer;
  try {
    docs = await serveDocs({
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.dir === undefined ? {} : { dir: options.dir }),
      answers: { [`/${CONSOLE_TARGET_FILE}`]: target },
    });
  } catch (error) {
    await simulator?.close();
    throw error;
  }
  return {
    docs,
    ...(simulator ? { simulator } : {}),
    close: async () => {
      await Promise.all([docs.close(), simulator?.close()]);
    },
  };
}
