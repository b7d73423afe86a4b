import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One module graph for all files of a worker (measured: 13 CPU-seconds less a run on two
    // cores). The files share no state but what these settings put back after each test.
    isolate: false,
    // The run's one Chromium, for every browser test file (test/browser-setup.ts).
    globalSetup: ["test/browser-setup.ts"],
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    // Compiling the samples in-process and driving Chromium take seconds of real time, more on a
    // loaded machine: vitest's 5 s default made them flake. Generous, never a measure of speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
