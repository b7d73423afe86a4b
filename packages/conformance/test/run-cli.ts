// Runs the built CLI (dist/cli.js) as a user would, in its own process, and reads its report.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Report } from "../src/report.js";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  report: Report | undefined;
  files: Record<string, string>;
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 90_000,
): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build the package first (pnpm build)`);
  const dir = mkdtempSync(join(tmpdir(), "conformance-"));
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, "--report", dir, ...args],
      {
        timeout: timeoutMs,
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NO_COLOR: "1", ...env },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const files: Record<string, string> = {};
        for (const name of ["report.json", "junit.xml", "report.md"]) {
          const file = join(dir, name);
          if (existsSync(file)) files[name] = readFileSync(file, "utf8");
        }
        rmSync(dir, { recursive: true, force: true });
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({
          code,
          stdout,
          stderr,
          report: files["report.json"] ? JSON.parse(files["report.json"]) : undefined,
          files,
        });
      },
    );
  });
}

export const failedIds = (run: CliRun) =>
  (run.report?.scenarios ?? [])
    .filter((s) => s.status === "failed")
    .map((s) => s.id)
    .sort();
