// A run as the CLI makes it once its flags are parsed (parseArgs, then runConformance), in this
// test's own process: what a run host (run-cli.ts) does in a process of its own, without that
// process's start and module graph (1.7 CPU-s each, measured). Its lines are read as the run
// printed them, colours stripped (on when FORCE_COLOR is set); its notices, which go to stderr, as
// stderr. Exit codes, signals and a real stdout need the built CLI in its own process (runCli).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { runConformance } from "../src/active/run.js";
import { parseArgs } from "../src/cli/cli-options.js";
import { reportFiles } from "../src/report/formats.js";
import { type CliRun, runEnv, toRun } from "./run-cli.js";

const lines = (written: string[]) => written.map((line) => `${stripVTControlCharacters(line)}\n`).join("");

/**
 * One run with the CLI's flags and environment variables (only those, as runCli gives them), and
 * the options no flag gives (a library user's: `recordExchanges`).
 */
export async function runInProcess(
  args: string[],
  env: Record<string, string> = {},
  library: { recordExchanges?: string } = {},
): Promise<CliRun> {
  const dir = mkdtempSync(join(tmpdir(), "conformance-in-process-"));
  const out: string[] = [];
  const notices: string[] = [];
  try {
    const { exitCode } = await runConformance(
      { ...parseArgs(["--report", dir, ...args]), ...library },
      {
        env: runEnv(env),
        write: (line) => out.push(line),
        notice: (line) => notices.push(line),
      },
    );
    const files: Record<string, string> = {};
    for (const name of reportFiles()) {
      const file = join(dir, name);
      if (existsSync(file)) files[name] = readFileSync(file, "utf8");
    }
    return toRun(exitCode, lines(out), lines(notices), files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
