// Runs the project's own Redocly CLI (the one pinned in package.json) and parses its JSON output.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { redoclyBin } from "../scripts/redocly-bin.mjs";

export const specDir = fileURLToPath(new URL("..", import.meta.url));

export function redoclyJson<T>(args: string[]): T {
  const run = spawnSync(process.execPath, [redoclyBin(), ...args, "--format=json"], {
    cwd: specDir,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    timeout: 60_000,
  });
  const start = run.stdout.indexOf("{");
  if (start < 0) throw new Error(`redocly ${args.join(" ")} printed no JSON:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(run.stdout.slice(start)) as T;
}

export interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer: string }[];
}

export interface LintReport {
  totals: { errors: number; warnings: number };
  problems: LintProblem[];
}
