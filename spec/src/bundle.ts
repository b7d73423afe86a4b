// The bundled description, read from dist/ (run `pnpm bundle` first), and its model. dist/<name>.json
// is the merged description: the seed plus the platform's published facts where the seed is silent,
// each cited (`x-platform-source`, scripts/merge-platform.mjs); dist/seed/<name>.json is the seed's
// word alone.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildModel } from "./model/build.js";
import type { SpecModel } from "./model/types.js";

export const PRODUCT_BUNDLES = ["cloud", "iam", "streaming", "security", "storage"] as const;
export type ProductBundle = (typeof PRODUCT_BUNDLES)[number];

export const bundlePath = fileURLToPath(new URL("../dist/openapi.json", import.meta.url));

export const seedBundlePath = fileURLToPath(new URL("../dist/seed/openapi.json", import.meta.url));

/**
 * The bundled description of one product ("cloud", …) or, without argument, of the whole API: the
 * merged one, or with `{ seed: true }` the seed's word alone.
 */
export function loadBundle(
  product?: ProductBundle,
  { seed = false }: { seed?: boolean } = {},
): Record<string, unknown> {
  const dir = seed ? "../dist/seed/" : "../dist/";
  const file = fileURLToPath(new URL(`${dir}${product ?? "openapi"}.json`, import.meta.url));
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new Error(`${file} does not exist: bundle the description first (pnpm bundle).`);
    throw error;
  }
}

const models = new Map<string, SpecModel>();

/** The model of the bundled (merged, or with `{ seed: true }` the seed's) description, built once per process. */
export function loadModel(product?: ProductBundle, { seed = false }: { seed?: boolean } = {}): SpecModel {
  const key = `${seed ? "seed:" : ""}${product ?? ""}`;
  let model = models.get(key);
  if (!model) {
    model = buildModel(loadBundle(product, { seed }));
    models.set(key, model);
  }
  return model;
}
