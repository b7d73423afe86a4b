// What a run and a fuzz run print, in one place: every line reaches the screen through
// forTerminal (what a target sent shows as text), redacted of the keys in the key variables,
// anything shaped like a token (a usage error may echo a token typed as a flag's value) and a
// URL's password; once the target is known, of the target's keys too.

import { type ConformanceOptions, KEY_VARIABLES } from "../shared/conformance-options.js";
import { createRedactor, createUsageRedactor } from "../shared/redact.js";
import type { Report } from "../shared/results.js";
import { forTerminal } from "../shared/terminal.js";
import { createProgress, type Progress, type ProgressOut } from "./progress.js";

/** Where a command's lines and environment come from (tests give their own). */
export interface RunResult {
  /** 0: conformant; 1: not; 2: usage; 128 + a signal's number (130: Ctrl-C): interrupted (fuzz). */
  exitCode: 0 | 1 | 2 | 130 | 143;
  report?: Report;
  /** Where the report files were written. */
  reportDir?: string;
}

export interface RunIo {
  env?: Record<string, string | undefined>;
  write?: (line: string) => void;
  /** Lines on what discovery waits for (a target slow to answer); default: stderr. */
  notice?: (line: string) => void;
  cwd?: string;
  /**
   * Aborted on an interrupt (the CLI's SIGINT/SIGTERM): a fuzz run sends nothing more, puts back
   * what it changed and writes the report of what it sent.
   */
  signal?: AbortSignal;
  /**
   * Live progress (src/report/progress.ts), off unless given: `true` draws on stdout (a status line on a
   * terminal, a "still running: …" line every 10 s without one), or on the given output. Every
   * line is then printed to it (`write` is not used).
   */
  progress?: boolean | ProgressOut;
}

export interface RunOutput {
  env: Record<string, string | undefined>;
  /** Prints a line, redacted. */
  write(line: string): void;
  /** Redacts a line as `write` does (the reports' redactor). */
  redactLine(line: string): string;
  /** From now on redacts the target's keys too; returns the redactor of those keys alone. */
  targetKeys(keys: (string | undefined)[]): (text: string) => string;
  /** The live progress, when asked for (`RunIo.progress`); `stop` it when the run ends. */
  progress?: Progress;
  /** Where notices go (`RunIo.notice`, or stderr), under the progress's status line. */
  notice: (line: string) => void;
}

export function runOutput(
  options: Pick<ConformanceOptions, "apiKeyEnv" | "resellerApiKeyEnv" | "target">,
  io: RunIo,
): RunOutput {
  const env = io.env ?? process.env;
  const usage = createUsageRedactor(
    env,
    [options.apiKeyEnv, options.resellerApiKeyEnv, KEY_VARIABLES.apiKeyEnv, KEY_VARIABLES.resellerApiKeyEnv],
    [options.target],
  );
  let redactLine = usage;
  const out: ProgressOut | undefined = io.progress === true ? process.stdout : io.progress || undefined;
  // The status line quotes what a target chose (its paths): redacted as every line is.
  const progress = out && createProgress(out, (text) => forTerminal(redactLine(text)));
  const print = (line: string) =>
    progress
      ? progress.line(forTerminal(line))
      : (io.write ?? ((text: string) => process.stdout.write(`${text}\n`)))(forTerminal(line));
  const toNotice = io.notice ?? ((line: string) => process.stderr.write(`${line}\n`));
  return {
    ...(progress ? { progress } : {}),
    notice: (line) => (progress ? progress.above(() => toNotice(line)) : toNotice(line)),
    env,
    write: (line) => print(redactLine(line)),
    redactLine: (line) => redactLine(line),
    targetKeys(keys) {
      const redact = createRedactor(keys);
      redactLine = (line) => usage(redact(line));
      return redact;
    },
  };
}

/**
 * Runs `body` with the run's output, and stops its live progress however the run ends (a thrown
 * error included), so no status line is left drawn: the main run's and fuzz's one entry.
 */
export async function withRunOutput<T>(
  options: Parameters<typeof runOutput>[0],
  io: RunIo,
  body: (output: RunOutput) => Promise<T>,
): Promise<T> {
  const output = runOutput(options, io);
  try {
    return await body(output);
  } finally {
    output.progress?.stop();
  }
}
