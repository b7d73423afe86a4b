// Starts Prism's mock server on the bundled description. Used by `pnpm mock` and by tests.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundlePath } from "../lib/index.js";

export { bundlePath };

/** The package that runs the mock: an optional peer, so a consumer who never mocks never installs it. */
export const PRISM_PACKAGE = "@stoplight/prism-cli";

/** Prism is not installed where this package can find it. */
export class PrismNotInstalledError extends Error {
  code = "PRISM_NOT_INSTALLED";
  constructor() {
    super(
      `The Prism mock needs ${PRISM_PACKAGE}, which is not installed: npm install --save-dev ${PRISM_PACKAGE}@5`,
    );
    this.name = "PrismNotInstalledError";
  }
}

function prismBin() {
  const require = createRequire(import.meta.url);
  let pkgPath;
  try {
    pkgPath = require.resolve(`${PRISM_PACKAGE}/package.json`);
  } catch (error) {
    if (error?.code === "MODULE_NOT_FOUND") throw new PrismNotInstalledError();
    throw error;
  }
  const pkg = require(pkgPath);
  const bin = typeof pkg.bin === "string" ? pkg.bin : pkg.bin.prism;
  return join(dirname(pkgPath), bin);
}

/**
 * Start Prism on 127.0.0.1. Resolves once Prism says it is listening; rejects if it exits first or
 * does not get ready within `readyTimeoutMs`.
 * `port: 0` picks a free port: Prism cannot listen on port 0 itself.
 * @param {{ port?: number, host?: string, spec?: string, readyTimeoutMs?: number, stdio?: "pipe" | "inherit" }} [options]
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startPrismMock(options = {}) {
  const { host = "127.0.0.1", spec = bundlePath, readyTimeoutMs = 120_000 } = options;
  const start = (port) => startOn(port, host, spec, readyTimeoutMs, options.stdio);
  if (options.port === 0) return onFreePort(() => freePort(host), start);
  return start(options.port ?? 4010);
}

/** How often a port picked by freePort is picked again when Prism finds it taken. */
const FREE_PORT_TRIES = 5;

/**
 * `start` on a port `pick` says is free, picked again when the start fails because another server
 * took it in the meantime: the port is free only until it is let go, and Prism binds it seconds
 * later (a loaded machine's tests start servers all the while). Any other failure is the start's.
 * @template T
 * @param {() => Promise<number>} pick
 * @param {(port: number) => Promise<T>} start
 * @returns {Promise<T>}
 */
export async function onFreePort(pick, start) {
  for (let tries = 1; ; tries++) {
    try {
      return await start(await pick());
    } catch (error) {
      if (tries >= FREE_PORT_TRIES || !/\bEADDRINUSE\b/.test(String(error?.message))) throw error;
    }
  }
}

/** A port that was free on `host` a moment ago. */
function freePort(host) {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function startOn(port, host, spec, readyTimeoutMs, stdio) {
  if (!existsSync(spec)) {
    return Promise.reject(new Error(`No bundled description at ${spec}; run \`pnpm bundle\` first.`));
  }
  const child = spawn(process.execPath, [prismBin(), "mock", spec, "-h", host, "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = `http://${host}:${port}`;
  let output = "";
  const close = () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 3_000).unref();
    });
  return new Promise((resolveReady, rejectReady) => {
    const timer = setTimeout(() => {
      void close();
      rejectReady(new Error(`Prism did not start within ${readyTimeoutMs} ms:\n${output}`));
    }, readyTimeoutMs);
    let ready = false;
    const onData = (chunk) => {
      const text = chunk.toString();
      if (stdio === "inherit") process.stdout.write(text);
      // Once ready, Prism logs lines per request: kept and searched again on each chunk, they cost the
      // caller CPU growing with the square of the requests (0.3 CPU-s of fuzz's 400-request run).
      // Only a failed start shows them; the pipe is still read, so Prism never blocks on it.
      if (ready) return;
      output += text;
      if (/Prism is listening/.test(output)) {
        ready = true;
        output = "";
        clearTimeout(timer);
        resolveReady({ url, close });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      rejectReady(new Error(`Prism exited with code ${code} before it was ready:\n${output}`));
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = Number(process.env.PORT ?? 4010);
  const mock = await startPrismMock({ port, stdio: "inherit" });
  console.log(`Mock of the platform API at ${mock.url} (Ctrl-C to stop)`);
  const stop = async () => {
    await mock.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
