import { defineConfig } from "vitest/config";

// Tests of the repository's own scripts (scripts/); each package has its own config.
export default defineConfig({
  test: {
    include: ["scripts/test/**/*.test.ts"],
    testTimeout: 120_000,
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
