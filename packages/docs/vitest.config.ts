import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One module graph for all files of a worker (measured: 13 CPU-seconds less a run on two
    // cores). The files share no state but what these settings put back after each test.
    isolate: false,
    // One worker: every browser test file shares its one Chromium (test/shared-browser.ts) and the
    // site built once (test/built-site.ts). It is vitest's default on the project's 2-core machines;
    // said here so it holds on any. Measured against one Chromium launched in a globalSetup and
    // reached over its WebSocket endpoint: 23-25 CPU-seconds for the browser files against 28-29,
    // each call to the browser then passing through a second process.
    maxWorkers: 1,
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    // Compiling the samples in-process and driving Chromium take seconds of real time, more on a
    // loaded machine: vitest's 5 s default made them flake. Generous, never a measure of speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The transformed test and source files kept on disk between runs, keyed by each file's
    // content: a run after the first transforms only what changed. .ci/run runs the tests three
    // times (Node 20, 22, 24); measured in the simulator: 0.3 s of transform instead of 2-3 s.
    experimental: { fsModuleCache: true },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
