#!/usr/bin/env node
// `pnpm conformance [options]`: see `--help` and the package README.
import { createProgram, toOptions } from "./cli-options.js";
import { DEFAULTS } from "./options.js";
import { createUsageRedactor } from "./redact.js";

// commander echoes what it refuses ("unknown option '--api-key=123$…'"): a token typed on the
// command line, or one in the key variables, is redacted from what it prints.
const redact = createUsageRedactor(process.env, [DEFAULTS.apiKeyEnv, DEFAULTS.resellerApiKeyEnv]);
const program = createProgram().configureOutput({
  writeErr: (text) => process.stderr.write(redact(text)),
  writeOut: (text) => process.stdout.write(redact(text)),
});
program.exitOverride((error) => {
  // Usage errors exit 2 (commander's default is 1, which here means "not conformant").
  process.exit(error.exitCode === 0 ? 0 : 2);
});
program.parse(process.argv);

// Loaded only now: vitest and the rest take a third of a second, which --help and a mistyped flag
// do not need.
const { runConformance } = await import("./run.js");
const result = await runConformance(toOptions(program.opts()));
process.exitCode = result.exitCode;
