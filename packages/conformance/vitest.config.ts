import { defineConfig } from "vitest/config";
import LongestWaitsFirst from "./test/longest-waits-first.js";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/warm-scenario-modules.ts", "test/shared-chromium.ts"],
    sequence: { sequencer: LongestWaitsFirst },
    // Two files at a time: a worker's own module graph costs CPU (measured: 87 CPU-seconds with
    // four, 82 with two, in the same 58 s), and the runs that wait (the suite's pacing, respect's
    // 5 s polls) already wait side by side, in the run host and in the concurrent groups.
    maxWorkers: 2,
    // One module graph per worker, as the other packages do: each file importing the spec's
    // validators and the simulator again cost 40 of the package's 130 CPU-seconds.
    isolate: false,
    // Concurrent tests of one group at a time (teeth.test.ts's whole-suite runs are bounded by its
    // own RUNS_AT_ONCE, asked for as the file starts). Together with the other files this keeps two
    // cores busy, not swamped.
    maxConcurrency: 8,
    // Bounds for a run that hangs, not estimates: a whole-suite run takes 6 s alone and 20 s on a
    // loaded machine. Above RUN_TIMEOUT_MS (test/run-cli.ts), so a stopped run fails with its output.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // The test files and the src/ they import compiled once, kept between runs (keyed by each
    // file's content, its id and this config, so an edited file is compiled again): measured on
    // five in-process files, 1.9 of 12 CPU-s fewer a run; the whole package transforms 12 s.
    // Beside the scenario runs' own cache (src/shared/module-cache.ts), never in it: those are
    // compiled under another config.
    experimental: { fsModuleCache: true, fsModuleCachePath: "node_modules/.cache/vitest-test-modules" },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
