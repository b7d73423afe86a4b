// The command line as cli.ts runs it: the program, its subcommands and what each runs, writing
// through the process it is given. Its own module so that what commander prints when it refuses a
// command line (and its redaction) can be read without starting a process.
import type { Command } from "commander";
// The suite's own names are never redacted as if they were a key (commander's echoes included).
import "../active/vocabulary.js";
import { interruptSignal } from "../shared/interrupt.js";
import { createUsageRedactor } from "../shared/redact.js";
import { forTerminal } from "../shared/terminal.js";
import { createProgram, toOptions } from "./cli-options.js";
import { createFuzzCommand, toFuzzOptions } from "./fuzz-options.js";
import { DEFAULTS } from "./options.js";
import { createParityCommand, toParityOptions } from "./parity-options.js";
import {
  createObserveCommand,
  createVerifyCommand,
  toObserveOptions,
  toVerifyOptions,
} from "./traffic-options.js";

/** What the command line reads and writes of its process. */
export interface CliProcess {
  env: NodeJS.ProcessEnv;
  argv: string[];
  writeOut(text: string): void;
  writeErr(text: string): void;
  /** Ends the process with a usage error's code (commander's refusals, --help, --version). */
  exit(code: number): never;
}

/** The program with its subcommands, ready to parse `io.argv`. */
export function createCli(io: CliProcess): Command {
  // commander echoes what it refuses ("unknown option '--api-key=123$…'"): a token typed on the
  // command line, one in the key variables, or the password of a URL on it is redacted from what
  // it prints.
  const redact = createUsageRedactor(io.env, [DEFAULTS.apiKeyEnv, DEFAULTS.resellerApiKeyEnv], io.argv);
  const configured = (command: Command) =>
    command
      .configureOutput({
        writeErr: (text) => io.writeErr(forTerminal(redact(text))),
        writeOut: (text) => io.writeOut(forTerminal(redact(text))),
      })
      // Usage errors exit 2 (commander's default is 1, which here means "not conformant").
      .exitOverride((error) => io.exit(error.exitCode === 0 ? 0 : 2));

  // What runs is loaded only once the command line is read: vitest and the rest take a third of a
  // second, which --help and a mistyped flag do not need.
  const program = configured(createProgram()).action(async () => {
    const { runConformance } = await import("../active/run.js");
    process.exitCode = (await runConformance(toOptions(program.opts()), { progress: true })).exitCode;
  });
  const observe = configured(createObserveCommand()).action(async () => {
    const { runObserve } = await import("../traffic/commands.js");
    process.exitCode = (await runObserve(toObserveOptions(observe.opts()))).exitCode;
  });
  const verify = configured(createVerifyCommand()).action(async () => {
    const { runVerify } = await import("../traffic/commands.js");
    process.exitCode = (await runVerify(toVerifyOptions(verify.opts()))).exitCode;
  });
  const fuzz = configured(createFuzzCommand()).action(async () => {
    const { runFuzz } = await import("../fuzz/run.js");
    process.exitCode = (
      await runFuzz(toFuzzOptions(fuzz.opts()), { signal: interruptSignal(), progress: true })
    ).exitCode;
  });
  const parity = configured(createParityCommand()).action(async () => {
    const { runParity } = await import("../parity/command.js");
    const signal = interruptSignal(
      (name) => `sending nothing more; writing the report of what was replayed (${name} again quits at once)`,
    );
    process.exitCode = (await runParity(toParityOptions(parity.opts()), { signal })).exitCode;
  });
  // A subcommand's options are its own (--report after `verify` is verify's).
  return program
    .enablePositionalOptions()
    .addCommand(observe)
    .addCommand(verify)
    .addCommand(fuzz)
    .addCommand(parity);
}
