import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One module graph for all files of a worker: each file's own import of the package and the
    // spec cost more CPU than most of its tests (measured: a third of the package's run), and
    // .ci/run runs them three times (the test command on Node 20, then Node 22 and 24). The files
    // share no state but what these settings put back after each test.
    isolate: false,
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // The transformed test and source files kept on disk between runs, keyed by each file's
    // content, as in the simulator: a run after the first transforms only what changed.
    experimental: { fsModuleCache: true },
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.typecheck.json" },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
