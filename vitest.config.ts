import { defineConfig } from "vitest/config";

// Tests of the repository's own scripts (scripts/); each package has its own config.
export default defineConfig({
  test: {
    include: ["scripts/test/**/*.test.ts"],
    testTimeout: 120_000,
    // One module graph for all files of a worker, as in the packages: each file imported its modules
    // again (TypeScript in three of them). Measured back to back, the files but spec-facts:
    // 11.6-13.5 CPU-seconds with it, 14.3-15.0 without. The files share no state: spec-facts puts back the
    // clock it fakes, as restoreMocks and the unstub settings put back what a test would stub.
    isolate: false,
    unstubEnvs: true,
    unstubGlobals: true,
    restoreMocks: true,
    // The transformed test and source files kept on disk between runs, keyed by each file's
    // content, as in the simulator: a run after the first transforms only what changed.
    experimental: { fsModuleCache: true },
    // spec-facts.test.ts imports the built packages of its copy of the repository: Node loads them
    // as they are, as it does for node_modules, rather than Vite compiling each module again.
    server: { deps: { external: [/\/platform-api-spec-facts-[^/]+\//] } },
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
