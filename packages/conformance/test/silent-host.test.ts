// Issue #18: a host that accepts connections and never answers. The CLI says within seconds, on
// stderr, what it is waiting for and how long it will keep trying, instead of a minute of silence.
// The test waits for that line (an event, bounded generously), never for a fixed time.

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { assertBuilt, CLI, runEnv } from "./run-cli.js";

const KEY = "777$silent-host-test-key-41b9";
/** A bound for a run that never says it, not an estimate: the line is due a few seconds in. */
const NOTICE_BOUND_MS = 60_000;

it("names what it waits for on stderr within seconds, not after a minute of silence", async () => {
  assertBuilt();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    // Accepts and never writes.
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  const dir = mkdtempSync(join(tmpdir(), "conformance-silent-"));
  // Its own process group, so that stopping it stops all it started.
  const child = spawn(process.execPath, [CLI, "--target", `http://127.0.0.1:${port}`, "--report", dir], {
    env: runEnv({ GCORE_API_KEY: KEY }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  const exited = new Promise<void>((done) => child.once("close", () => done()));
  try {
    const line = await new Promise<string>((resolve, reject) => {
      const bound = setTimeout(
        () => reject(new Error(`no notice on stderr within ${NOTICE_BOUND_MS} ms`)),
        NOTICE_BOUND_MS,
      );
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const found = stderr.split("\n").find((l) => l.startsWith("Waiting for "));
        if (found !== undefined) {
          clearTimeout(bound);
          resolve(found);
        }
      });
      child.once("close", (code) => {
        clearTimeout(bound);
        reject(new Error(`the CLI exited (${code}) without the notice:\n${stdout}\n${stderr}`));
      });
    });
    expect(line).toBe(
      `Waiting for GET /iam/clients/me at http://127.0.0.1:${port}: no answer after 3 s; will wait up to 15 s, then retry 3 more times (about 63 s in all).`,
    );
    // The run's record on stdout holds no notice; nothing holds the key.
    expect(stdout).not.toContain("Waiting for");
    expect(stdout + stderr).not.toContain(KEY);
  } finally {
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {
      // already gone
    }
    await exited;
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
    rmSync(dir, { recursive: true, force: true });
  }
});
