#!/usr/bin/env node
// `pnpm docs:serve [--port N] [--no-simulator]`: serve-program.ts, with this process.
import { runServe } from "./serve-program.js";

await runServe(process.argv.slice(2), {
  log: (line) => console.log(line),
  error: (line) => console.error(line),
  exit: (code) => process.exit(code),
  onSignal: (signal, handler) => process.once(signal, handler),
});
