import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One module graph for all files of a worker: each file's own import of the spec model cost
    // more CPU than most of its tests (measured: a fifth of the package's run on two cores). The
    // files share no state but what these settings put back after each test.
    isolate: false,
    // A worker thread rather than a child process: measured back to back on the loaded 2-core
    // machine, 13.4-15.0 CPU-seconds with forks, 13.1-13.3 with threads.
    pool: "threads",
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    testTimeout: 120_000,
    // The transformed test and source files kept on disk between runs, keyed by each file's
    // content, as in the simulator: a run after the first transforms only what changed.
    // Measured back to back: the spec 13.3-15.3 CPU-seconds with it, 15.2-16.5 without; the client
    // 12.2-13.6 with it, 12.9-13.4 without (its type check is most of its run).
    experimental: { fsModuleCache: true },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
