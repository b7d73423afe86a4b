// The generated files are committed; this proves they are what the generator makes from the
// current bundle and model, so a spec or model change without `pnpm generate` fails here.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  BUNDLES,
  generateModel,
  generatePlatformFacts,
  generateRuntimeModel,
  generateTypes,
} from "../scripts/generate.mjs";
import { arrayAt, isObject, loadBundle } from "./bundle.js";

const generatedDir = new URL("../src/generated/", import.meta.url);
const committed = (name: string) => readFileSync(new URL(`${name}.ts`, generatedDir), "utf8");

describe("src/generated is fresh", () => {
  it("holds exactly the generator's files: one per bundle, the model and its runtime view", () => {
    const files = readdirSync(generatedDir).filter((f) => f.endsWith(".ts"));
    expect(files.sort()).toEqual(
      [...BUNDLES.map((b) => `${b}.ts`), "model.ts", "runtime-model.ts", "platform-facts.ts"].sort(),
    );
  });

  it.each([...BUNDLES])("src/generated/%s.ts matches the current bundle", async (name) => {
    const expected = await generateTypes(name);
    expect(
      committed(name) === expected,
      `src/generated/${name}.ts is stale: run \`pnpm generate\` and commit it`,
    ).toBe(true);
  });

  it("src/generated/model.ts matches the model of the current bundle", () => {
    expect(
      committed("model") === generateModel(),
      "src/generated/model.ts is stale: run `pnpm generate` and commit it",
    ).toBe(true);
  });

  it("src/generated/runtime-model.ts matches the runtime view of the current bundle's model", () => {
    expect(
      committed("runtime-model") === generateRuntimeModel(),
      "src/generated/runtime-model.ts is stale: run `pnpm generate` and commit it",
    ).toBe(true);
  });

  it("src/generated/platform-facts.ts matches platform-facts.yaml", () => {
    expect(
      committed("platform-facts") === generatePlatformFacts(),
      "src/generated/platform-facts.ts is stale: run `pnpm generate` and commit it",
    ).toBe(true);
  });

  it("would catch a model file made before a spec change", () => {
    const changed = structuredClone(loadBundle());
    const rate = arrayAt(changed, "x-rate-limits").find((l) => isObject(l) && l.appliesTo === "all");
    if (!isObject(rate) || typeof rate.limit !== "number") throw new Error("no request rate");
    rate.limit += 1;
    expect(generateModel(changed) === committed("model")).toBe(false);
  });
});
