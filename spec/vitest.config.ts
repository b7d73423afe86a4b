import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One module graph for all files of a worker: each file's own import of the spec model cost
    // more CPU than most of its tests (measured: a fifth of the package's run on two cores). The
    // files share no state but what these settings put back after each test.
    isolate: false,
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    testTimeout: 120_000,
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
