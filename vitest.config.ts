import { defineConfig } from "vitest/config";

// Tests of the repository's own scripts (scripts/); each package has its own config.
export default defineConfig({
  test: {
    include: ["scripts/test/**/*.test.ts"],
    testTimeout: 120_000,
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
