// The per-product entry points and the whole API's client type are generated from the spec model
// and committed; this proves they are what the generator makes from the current model, so a spec change without `pnpm generate` fails
// here, and that package.json exports exactly those products.
import { readdir, readFile } from "node:fs/promises";
import { MODEL } from "@platform-api/spec/generated/model";
import { describe, expect, it } from "vitest";
// @ts-expect-error the generator is a plain ESM script without type declarations
import { API_FILE, generateApi, generateProducts, OUT_DIR } from "../scripts/generate.mjs";

const files = generateProducts() as Record<string, string>;
const dir = new URL(`../${OUT_DIR}`, import.meta.url);

describe("generated product entry points are fresh", () => {
  it.each(Object.keys(files))(`${OUT_DIR}%s matches the spec model`, async (name) => {
    const actual = await readFile(new URL(name, dir), "utf8");
    expect(actual === files[name], `${OUT_DIR}${name} is stale: run \`pnpm generate\` and commit it`).toBe(
      true,
    );
  });

  it(`${API_FILE} matches the spec model`, async () => {
    const actual = await readFile(new URL(`../${API_FILE}`, import.meta.url), "utf8");
    expect(actual === generateApi(), `${API_FILE} is stale: run \`pnpm generate\` and commit it`).toBe(true);
  });

  it("has one entry point per product of the spec, and no other", async () => {
    expect((await readdir(dir)).sort()).toEqual(MODEL.products.map((p) => `${p}.ts`).sort());
  });

  it("exports each product's entry point as a subpath of the package", async () => {
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, unknown>;
    };
    for (const product of MODEL.products)
      expect(pkg.exports[`./${product}`], `package.json exports ./${product}`).toEqual({
        types: `./dist/generated/products/${product}.d.ts`,
        default: `./dist/generated/products/${product}.js`,
      });
  });

  it("maps every subpath's types for node10 resolution too (typesVersions), and nothing else", async () => {
    const pkg = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, { types?: string }>;
      typesVersions: { "*": Record<string, string[]> };
    };
    const subpaths = Object.entries(pkg.exports).filter(([key, value]) => key !== "." && value.types);
    expect(pkg.typesVersions["*"]).toEqual(
      Object.fromEntries(subpaths.map(([key, value]) => [key.slice(2), [value.types]])),
    );
  });
});
