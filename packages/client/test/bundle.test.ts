// The helpers are functions of their own so that a program which only makes calls does not carry
// them (tree shaking). Bundled from src by esbuild with the benchmark's settings, in-process: the
// measure `pnpm bench` reports, without needing the package built.
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
// @ts-expect-error the benchmark is plain JavaScript, without declarations
import { BUNDLE_GOAL_BYTES, bundle } from "../bench/bundle-size.mjs";

const root = new URL("..", import.meta.url).pathname;
const HELPERS = ["src/paginate.ts", "src/pagination.ts", "src/wait-for-task.ts", "src/tasks.ts"];

/** The files that put code into the bundle of `entry`, and its gzip size. */
async function bundled(entry: string): Promise<{ files: string[]; gzip: number }> {
  const result = await bundle(entry, root, "ts");
  const output = Object.values(result.metafile.outputs)[0] as {
    inputs: Record<string, { bytesInOutput: number }>;
  };
  const files = Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  return { files, gzip: gzipSync(result.outputFiles[0].contents, { level: 9 }).length };
}

describe("the bundle of a program", () => {
  it("that only makes calls carries none of the helpers' code, and stays within the goal", {
    timeout: 60_000,
  }, async () => {
    const calls = await bundled('export { createClient } from "./src/index.ts";');
    expect(calls.files).toContain("src/client.ts");
    expect(calls.files.filter((file) => HELPERS.includes(file))).toEqual([]);
    expect(calls.gzip).toBeLessThanOrEqual(BUNDLE_GOAL_BYTES);
  });

  it("that walks lists and waits for tasks carries the helpers", { timeout: 60_000 }, async () => {
    const helpers = await bundled(
      'export { createClient, paginate, waitForTask, waitForTasks } from "./src/index.ts";',
    );
    expect(helpers.files).toEqual(expect.arrayContaining(HELPERS));
  });
});
