import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Compiling the samples in-process and driving Chromium take seconds of real time, more on a
    // loaded machine: vitest's 5 s default made them flake. Generous, never a measure of speed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    reporters: ["default", "json"],
    outputFile: { json: ".vitest-results.json" },
  },
});
