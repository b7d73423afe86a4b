// The generated files are committed; this proves they are what the generator makes from the
// current bundle, so a spec change without `pnpm generate` fails here.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
// @ts-expect-error the generator is a plain ESM script without type declarations
import { BUNDLES, generate, generateConventions } from "../scripts/generate.mjs";

const generated = (name: string) => readFile(new URL(`../src/generated/${name}.ts`, import.meta.url), "utf8");

describe("generated types are fresh", () => {
  it.each(Object.keys(BUNDLES))("src/generated/%s.ts matches the current bundle", async (name) => {
    const expected = await generate(name);
    const actual = await generated(name);
    expect(
      actual === expected,
      `src/generated/${name}.ts is stale: run \`pnpm generate\` and commit it`,
    ).toBe(true);
  });

  it("src/generated/conventions.ts matches the current bundle", async () => {
    expect((await generated("conventions")) === (await generateConventions()), "run `pnpm generate`").toBe(
      true,
    );
  });
});
