// Runs the project's own Redocly CLI (the one pinned in package.json) and parses its JSON output.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { redoclyBin } from "../scripts/redocly-bin.mjs";

export const specDir = fileURLToPath(new URL("..", import.meta.url));

export function redoclyJson<T>(args: string[]): T {
  return redoclyJsonEach<T>(args)[0] as T;
}

/**
 * The JSON documents one run prints, in order: `redocly lint` given several files prints one
 * report per file, back to back. One run for several files saves a Node process of a second or
 * more each.
 */
export function redoclyJsonEach<T>(args: string[]): T[] {
  const run = spawnSync(process.execPath, [redoclyBin(), ...args, "--format=json"], {
    cwd: specDir,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    timeout: 60_000,
  });
  const documents = topLevelObjects(run.stdout);
  if (documents.length === 0)
    throw new Error(`redocly ${args.join(" ")} printed no JSON:\n${run.stdout}\n${run.stderr}`);
  return documents.map((text) => JSON.parse(text) as T);
}

/** The top-level `{…}` spans of a text, skipping what is inside strings. */
function topLevelObjects(text: string): string[] {
  const spans: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i++;
      else if (char === '"') inString = false;
    } else if (char === '"' && depth > 0) inString = true;
    else if (char === "{") {
      if (depth++ === 0) start = i;
    } else if (char === "}" && depth > 0 && --depth === 0) spans.push(text.slice(start, i + 1));
  }
  return spans;
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
