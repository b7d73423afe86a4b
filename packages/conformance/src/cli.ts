#!/usr/bin/env node
// `pnpm conformance [options]`: see `--help` and the package README.
import { createProgram, toOptions } from "./cli-options.js";
import { runConformance } from "./run.js";

const program = createProgram();
program.exitOverride((error) => {
  // Usage errors exit 2 (commander's default is 1, which here means "not conformant").
  process.exit(error.exitCode === 0 ? 0 : 2);
});
program.parse(process.argv);

const result = await runConformance(toOptions(program.opts()));
process.exitCode = result.exitCode;
