// A Node process that makes conformance runs the way the CLI does once it has parsed its flags
// (parseArgs, then runConformance from the built package), several at a time, for the teeth test.
// One process and one module graph serve every run instead of one per run, which halves the CPU a
// run costs; each run still gets its own vitest, its own scenario worker and its own report.
//
// Started by startRunHost() in run-cli.ts with an IPC channel. Asked {id, args, env}, it answers
// {id, code, stdout, files} (files: the report files the run wrote), or {id, error}. It exits when
// its parent closes the channel, so it never outlives the test that started it, and after 15 min
// in any case.

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runConformance } from "../dist/active/run.js";
import { parseArgs } from "../dist/cli/cli-options.js";
import { reportFiles } from "../dist/report/formats.js";

async function run({ args, env, library = {} }) {
  const dir = mkdtempSync(join(tmpdir(), "conformance-host-"));
  const lines = [];
  try {
    const { exitCode } = await runConformance(
      { ...parseArgs(["--report", dir, ...args]), ...library },
      {
        env,
        write: (line) => lines.push(line),
      },
    );
    const files = {};
    for (const name of reportFiles()) {
      const file = join(dir, name);
      if (existsSync(file)) files[name] = readFileSync(file, "utf8");
    }
    return { code: exitCode, stdout: lines.map((line) => `${line}\n`).join(""), files };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

process.on("message", (message) => {
  run(message).then(
    (result) => process.send?.({ id: message.id, ...result }),
    (error) => process.send?.({ id: message.id, error: String(error?.stack ?? error) }),
  );
});
process.on("disconnect", () => process.exit(0));
// A bound for a parent that hangs without closing the channel: far beyond any test file.
setTimeout(() => process.exit(1), 900_000).unref();
process.send?.({ ready: true });
