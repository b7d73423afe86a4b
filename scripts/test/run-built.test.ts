// `pnpm conformance|sim|mock …` build quietly, then run the command: turbo stands in here as a small
// program of the test's, so that no real build runs beside the workspace's other tests.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../run-built.mjs", import.meta.url));
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "run-built-"));
  // The command: prints its arguments, exits with the code it is given.
  writeFileSync(
    join(dir, "command.mjs"),
    'console.log("ran with " + process.argv.slice(2).join(" ")); process.exit(Number(process.argv.at(-1)));\n',
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A turbo that prints a banner and ends with `code`, once `gate` exists when one is named. */
function fakeTurbo(code: number, gate?: string) {
  const file = join(dir, "turbo");
  const wait = gate ? `for i in $(seq 600); do [ -f '${gate}' ] && break; sleep 0.1; done\n` : "";
  writeFileSync(file, `#!/bin/sh\necho "• turbo 2 • Packages in scope: $3"\n${wait}exit ${code}\n`);
  chmodSync(file, 0o755);
  return file;
}

/**
 * The script with `turbo` standing in for turbo, announcing a slow build after its own delay; but
 * where the test waits for the announcement (`onStderr`), at once: the stand-in build waits for the
 * line instead of the test waiting out the real delay.
 */
function run(turbo: string, args: string[], onStderr?: (text: string) => void) {
  const announce = onStderr ? { RUN_BUILT_ANNOUNCE_AFTER_MS: "0" } : {};
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [script, "@platform-api/x", join(dir, "command.mjs"), ...args], {
      env: {
        ...process.env,
        RUN_BUILT_TURBO: turbo,
        ...announce,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no end within 60 s; stderr: ${stderr}`));
    }, 60_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      onStderr?.(stderr);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe("run-built", () => {
  it("prints the command's output only, with its arguments and its exit code", async () => {
    const result = await run(fakeTurbo(0), ["--flag", "3"]);
    expect(result.stdout).toBe("ran with --flag 3\n");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(3);
  });

  it("shows turbo's output when the build fails, runs nothing and exits 2", async () => {
    const result = await run(fakeTurbo(1), ["0"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("Packages in scope: --filter=@platform-api/x");
    expect(result.stderr).toContain("The build of @platform-api/x failed (above); nothing was run.");
  });

  it("says what it is waiting for when the build takes a while", async () => {
    const gate = join(dir, "gate");
    const result = await run(fakeTurbo(0, gate), ["0"], (stderr) => {
      if (stderr.includes("Building @platform-api/x")) writeFileSync(gate, "");
    });
    expect(result.stderr).toBe("Building @platform-api/x and what it needs (turbo)…\n");
    expect(result.stdout).toBe("ran with 0\n");
    expect(result.code).toBe(0);
  });
});
