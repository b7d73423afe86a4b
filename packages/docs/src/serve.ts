// Serves the built site on the loopback address only (sirv: a small, well-kept static handler),
// its text files compressed (br or gzip, as the request accepts) when asked for whole.
import { existsSync, type Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join, resolve, sep } from "node:path";
import sirv from "sirv";
import { defaultOutDir } from "./build.js";
import { CompressedFiles, isCompressible, MIN_COMPRESSED_SIZE, negotiateEncoding } from "./compression.js";
import { CONSOLE_CONTENT_SECURITY_POLICY } from "./console.js";
import { CONTENT_SECURITY_POLICY } from "./layout.js";

/** sirv's own type lookup, resolved from sirv's package: a compressed file keeps the type sirv gives it. */
const sirvRequire = createRequire(createRequire(import.meta.url).resolve("sirv"));
const { lookup: contentType } = sirvRequire("mrmime") as { lookup(name: string): string | undefined };

/**
 * One store for every server of the process: a file's bytes are the same whichever server sends
 * them (the store checks each file's size and time), and the browser test files each start a
 * server on the one built site.
 */
const COMPRESSED = new CompressedFiles();

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
  const root = resolve(dir);
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
    const asIs = () =>
      handler(req, res, () => {
        res.statusCode = 404;
        res.setHeader("content-type", "text/plain; charset=utf-8");
        res.end(`Not found: ${req.url}\n`);
      });
    sendCompressed(req, res, root, COMPRESSED).then(
      (sent) => sent || asIs(),
      // A file that cannot be read or compressed goes out as sirv sends it (or its error).
      () => asIs(),
    );
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

/** The file a path names, as sirv finds it (`/` and `/guides` reach their index.html), within `root`. */
async function findFile(root: string, url: string): Promise<{ path: string; stats: Stats } | undefined> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url, "http://localhost").pathname).replace(/\/+$/, "");
  } catch {
    return undefined;
  }
  for (const candidate of [pathname, `${pathname}.html`, `${pathname}/index.html`]) {
    const path = resolve(root, `.${candidate}`);
    if (path !== root && !path.startsWith(root + sep)) return undefined;
    const stats = await stat(path).catch(() => undefined);
    if (stats?.isFile()) return { path, stats };
  }
  return undefined;
}

/**
 * Sends a text file whole in the encoding the request prefers (src/compression.ts), and says
 * whether it did; anything else (another method, a range, a small or binary file, a request that
 * accepts no encoding, a path that names no file) is left to sirv. Every answer for a text file
 * varies by Accept-Encoding, so a cache never hands one encoding to a client that asked for another.
 */
async function sendCompressed(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  files: CompressedFiles,
): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const found = await findFile(root, req.url ?? "/");
  if (!found || !isCompressible(found.path)) return false;
  res.setHeader("vary", "Accept-Encoding");
  const encoding = negotiateEncoding(req.headers["accept-encoding"]);
  // A range is of the file as it is: sirv answers it, as before.
  if (!encoding || req.headers.range || found.stats.size < MIN_COMPRESSED_SIZE) return false;
  const { path, stats } = found;
  // sirv's validator for the file as it is, marked with the encoding: each representation its own.
  const etag = `W/"${stats.size}-${stats.mtime.getTime()}-${encoding}"`;
  const common = { etag, "cache-control": "no-cache", "last-modified": stats.mtime.toUTCString() };
  const held = (req.headers["if-none-match"] ?? "").split(",").map((tag) => tag.trim());
  if (held.includes(etag)) {
    res.writeHead(304, common).end();
    return true;
  }
  const body = await files.get(path, stats, encoding);
  const type = contentType(path) ?? "";
  res.writeHead(200, {
    ...common,
    "content-type": type === "text/html" ? `${type};charset=utf-8` : type,
    "content-encoding": encoding,
    "content-length": body.length,
  });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
