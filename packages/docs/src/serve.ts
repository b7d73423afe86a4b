// Serves the built site on the loopback address only (sirv: a small, well-kept static handler).
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import sirv from "sirv";
import { defaultOutDir } from "./build.js";
import { CONSOLE_CONTENT_SECURITY_POLICY } from "./console.js";
import { CONTENT_SECURITY_POLICY } from "./layout.js";

export interface DocsServer {
  url: string;
  close(): Promise<void>;
}

export async function serveDocs(
  options: {
    port?: number;
    dir?: string;
    /** JSON answered at these paths in place of the site's file (the console's target: serve-console.ts). */
    answers?: Record<string, unknown>;
  } = {},
): Promise<DocsServer> {
  const dir = options.dir ?? defaultOutDir;
  if (!existsSync(join(dir, "index.html")))
    throw new Error(`No built site in ${dir}: run \`pnpm run docs\` first.`);
  const port = options.port ?? 4173;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(
      `--port ${port} is not a port; expected an integer from 0 to 65535 (0 picks a free one).`,
    );
  const handler = sirv(dir, { dev: true, etag: true });
  const server: Server = createServer((req, res) => {
    // The pages' own policy (src/layout.ts; the reference's, src/console.ts), and frame-ancestors,
    // which a <meta> cannot set.
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const policy = path.startsWith("/reference/") ? CONSOLE_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY;
    res.setHeader("content-security-policy", `${policy}; frame-ancestors 'none'`);
    if (options.answers && Object.hasOwn(options.answers, path)) {
      res.setHeader("content-type", "application/json; charset=utf-8");
      res.setHeader("cache-control", "no-store");
      res.end(JSON.stringify(options.answers[path]));
      return;
    }
    handler(req, res, () => {
      res.statusCode = 404;
      res.setHeader("content-type", "text/plain; charset=utf-8");
      res.end(`Not found: ${req.url}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
