#!/usr/bin/env node
// `pnpm conformance [options]`, `pnpm conformance observe …`, `verify …`, `fuzz …`, `parity …`: see
// `--help` and the package README. The command line itself: src/cli/program.ts.
import { createCli } from "./cli/program.js";

await createCli({
  env: process.env,
  argv: process.argv,
  writeOut: (text) => process.stdout.write(text),
  writeErr: (text) => process.stderr.write(text),
  exit: (code) => process.exit(code),
}).parseAsync(process.argv);
