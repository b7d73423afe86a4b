// The scenarios as plain vitest tests. The CLI uses this config with its own reporter and run
// context; `pnpm scenarios` runs it directly against the embedded simulator (flags from
// CONFORMANCE_ARGS, e.g. CONFORMANCE_ARGS="--allow-writes --allow-burst").
import { defineConfig } from "vitest/config";
import ByFileName from "./src/sequencer.js";

export default defineConfig({
  test: {
    include: ["scenarios/**/*.scenario.ts"],
    globalSetup: ["./src/global-setup.ts"],
    // One worker, one module graph: the suite's requests share one pacer, and files run in order.
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
    isolate: false,
    sequence: { sequencer: ByFileName },
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
