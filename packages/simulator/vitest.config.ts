import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One module graph for all files of a worker: each file's own import of the package and the
    // spec cost more CPU than most of its tests (measured: a third of the package's run), and
    // .ci/run runs them three times (the test command on Node 20, then Node 22 and 24). The files
    // share no state but what these settings put back after each test.
    isolate: false,
    // One worker: a second one imports the whole module graph again (Fastify, Ajv, the spec,
    // fast-check) for files that take a second or two each, while `pnpm test` already keeps both
    // cores busy with the other packages. Measured back to back on the 2-core machine under load:
    // 15.8-16.3 CPU-seconds with one, 18.2-18.5 with two, in about the same wall time (a later series
    // on a busier machine, with the module cache below: 15.4-17.9 against 15.8-18.1).
    maxWorkers: 1,
    // A worker thread rather than a child process: measured back to back on the loaded 2-core
    // machine, 15.5-17.3 CPU-seconds with forks, 14.4-16.3 with threads (the root's and the
    // client's tests measured no gain, so they keep forks).
    pool: "threads",
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // The transformed test and source files kept on disk between runs, keyed by each file's
    // content: a run after the first transforms only what changed. .ci/run runs the tests three
    // times (Node 20, 22, 24); measured in the simulator: 0.3 s of transform instead of 2-3 s.
    experimental: { fsModuleCache: true },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
